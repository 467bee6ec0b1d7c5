"""The event-driven progress model of a sharing schedule, on :mod:`packgap.engine`.

A job's work is its iteration count I_j; while it runs at sub-batch b its rate is
``1 / (t_iter(b) x xi)`` iterations per second, where xi is 1 alone and, while it shares
any of its GPUs, the largest xi(own model, partner model) over its partners (eqs. 5-7,
see :mod:`packgap.sharing.perf`). Rates change only at events: arrivals, segment starts and
stops, finishes. Resuming a preempted job costs ``preemption_overhead_s`` of solo progress,
charged as that many seconds of iterations at its solo pace.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from packgap import engine
from packgap.sharing.instance import SharingInstance
from packgap.sharing.perf import Perf
from packgap.sharing.solution import SharingSolution

#: Two event times closer than this (s) are the same instant (float round-off of rate x dt).
TIME_TOL = 1e-6


def co_located_rates(perf: Perf, running: Mapping[str, tuple[tuple[int, ...], int]]) -> dict[str, float]:
    """Iterations per second of every running job (``job -> (GPU ids, sub-batch)``)."""
    holders: dict[int, list[str]] = {}
    for jid, (gpus, _) in running.items():
        for g in gpus:
            holders.setdefault(g, []).append(jid)
    rates = {}
    for jid, (gpus, b) in running.items():
        xi = 1.0
        for g in gpus:
            for other in holders[g]:
                if other != jid:
                    xi = max(xi, perf.xi(jid, other))
        rates[jid] = 1.0 / (perf.t_iter(jid, b) * xi)
    return rates


@dataclass(frozen=True)
class Holding:
    """Job ``job`` holds ``gpus`` over [start, end)."""

    job: str
    start: float
    end: float
    gpus: tuple[int, ...]


@dataclass(frozen=True)
class Replay:
    run: engine.Run
    holdings: tuple[Holding, ...]


def replay(instance: SharingInstance, solution: SharingSolution, perf: Perf | None = None) -> Replay:
    """Run the schedule's segments through the progress model; finishes are recomputed.

    Assumes the static checks of the validator passed (known jobs, starts after arrivals,
    only the last segment without a stop).
    """
    perf = perf or Perf(instance)
    batch = {j.id: j.batch for j in solution.jobs}
    boundaries: list[tuple[float, int, str, int]] = []
    for j in solution.jobs:
        for k, seg in enumerate(j.segments):
            boundaries.append((seg.start, 1, j.id, k))
            if seg.stop is not None:
                boundaries.append((seg.stop, 0, j.id, k))
    boundaries.sort()
    running: dict[str, tuple[tuple[int, ...], int]] = {}
    segments = {j.id: j.segments for j in solution.jobs}
    overhead = instance.cluster.preemption_overhead_s
    cursor = 0

    def policy(state: engine.State) -> engine.Decision:
        nonlocal cursor
        for jid in state.finished:
            running.pop(jid, None)
        charge = {}
        while cursor < len(boundaries) and boundaries[cursor][0] <= state.now + TIME_TOL:
            _, starts, jid, k = boundaries[cursor]
            cursor += 1
            if state.progress[jid].finish is not None:
                continue
            if starts:
                running[jid] = (segments[jid][k].gpus, batch[jid])
                if k > 0 and overhead > 0:
                    charge[jid] = overhead / perf.t_iter(jid, batch[jid])
            else:
                running.pop(jid, None)
        wake = boundaries[cursor][0] if cursor < len(boundaries) else None
        # A start within TIME_TOL before the arrival event waits for that event.
        arrived = {jid: v for jid, v in running.items() if state.progress[jid].job.arrival <= state.now}
        return engine.Decision(co_located_rates(perf, arrived), charge, wake)

    jobs = [engine.EngineJob(j.id, j.arrival, float(j.iterations)) for j in instance.jobs]
    run = engine.simulate(jobs, policy)
    holdings = []
    for j in solution.jobs:
        finish = run.records[j.id].finish
        for seg in j.segments:
            end = finish if seg.stop is None else min(seg.stop, finish)
            holdings.append(Holding(j.id, seg.start, end, seg.gpus))
    return Replay(run, tuple(holdings))
