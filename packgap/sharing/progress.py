"""The event-driven progress model of a sharing schedule, on :mod:`packgap.engine`.

A job's work is its iteration count I_j; while it runs at sub-batch b its rate is
``1 / (t_iter(b) x xi)`` iterations per second, where xi is 1 alone and, while it shares
any of its GPUs, the largest xi(own model, partner model) over its partners (eqs. 5-7,
see :mod:`packgap.sharing.perf`). Rates change only at events: arrivals, segment starts and
stops, finishes. Resuming a preempted job costs :func:`resume_cost_s` of solo progress,
charged as that many seconds of iterations at its solo pace. The replay gives the engine
only the rates that change (:class:`CoLocation`), so an event costs time in the jobs whose
co-runners changed.
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


class CoLocation:
    """The rates of :func:`co_located_rates`, kept up to date as jobs start and stop.

    :meth:`changes` recomputes only the jobs whose GPUs gained or lost a co-runner since
    its last call, so an event costs time in the jobs it touches, not in every running job.
    """

    def __init__(self, perf: Perf) -> None:
        self.perf = perf
        self.holders: dict[int, list[str]] = {}
        self.placed: dict[str, tuple[tuple[int, ...], int]] = {}
        self.rates: dict[str, float] = {}
        self._touched: dict[str, None] = {}

    def add(self, job: str, gpus: tuple[int, ...], batch: int) -> None:
        """``job`` runs on ``gpus`` at sub-batch ``batch`` (moving it if it ran elsewhere)."""
        if job in self.placed:
            self.remove(job)
        self.placed[job] = (gpus, batch)
        self._touched[job] = None
        for g in gpus:
            held = self.holders.setdefault(g, [])
            self._touched.update(dict.fromkeys(held))
            held.append(job)

    def remove(self, job: str, finished: bool = False) -> None:
        """``job`` leaves its GPUs: stopped, or ``finished`` (the engine already stopped it)."""
        gpus, _ = self.placed.pop(job)
        self._touched[job] = None
        for g in gpus:
            held = self.holders[g]
            held.remove(job)
            self._touched.update(dict.fromkeys(held))
        if finished:
            self.rates.pop(job, None)

    def rate(self, job: str) -> float:
        """Iterations per second: 1 / (t_iter x the largest xi over the job's co-runners)."""
        gpus, b = self.placed[job]
        xi = 1.0
        for g in gpus:
            for other in self.holders[g]:
                if other != job:
                    xi = max(xi, self.perf.xi(job, other))
        return 1.0 / (self.perf.t_iter(job, b) * xi)

    def changes(self) -> tuple[dict[str, float], list[str]]:
        """New or changed rates and the jobs that stopped, since the last call."""
        rates: dict[str, float] = {}
        stopped = []
        for job in self._touched:
            if job in self.placed:
                r = self.rate(job)
                if self.rates.get(job) != r:
                    rates[job] = self.rates[job] = r
            elif self.rates.pop(job, None) is not None:
                stopped.append(job)
        self._touched.clear()
        return rates, stopped


def resume_cost_s(instance: SharingInstance, resume_overhead_s: float) -> float:
    """No-progress seconds per resume: the cluster's ``preemption_overhead_s`` plus the
    policy's own ``resume_overhead_s`` (a schedule's :attr:`SharingSolution.resume_overhead_s`)."""
    return instance.cluster.preemption_overhead_s + resume_overhead_s


def co_located_rates(perf: Perf, running: Mapping[str, tuple[tuple[int, ...], int]]) -> dict[str, float]:
    """Iterations per second of every running job (``job -> (GPU ids, sub-batch)``)."""
    tracker = CoLocation(perf)
    for jid, (gpus, b) in running.items():
        tracker.add(jid, gpus, b)
    return tracker.changes()[0]


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
    tracker = CoLocation(perf)
    early: dict[str, tuple[tuple[int, ...], int]] = {}
    segments = {j.id: j.segments for j in solution.jobs}
    overhead = resume_cost_s(instance, solution.resume_overhead_s)
    cursor = 0

    def policy(state: engine.State) -> engine.Decision:
        nonlocal cursor
        for jid in state.finished:
            tracker.remove(jid, finished=True)
        # A start within TIME_TOL before the arrival event waits for that event.
        for jid in [jid for jid in early if state.progress[jid].job.arrival <= state.now]:
            tracker.add(jid, *early.pop(jid))
        charge = {}
        while cursor < len(boundaries) and boundaries[cursor][0] <= state.now + TIME_TOL:
            _, starts, jid, k = boundaries[cursor]
            cursor += 1
            if state.progress[jid].finish is not None:
                continue
            if starts:
                place = (segments[jid][k].gpus, batch[jid])
                if state.progress[jid].job.arrival <= state.now:
                    tracker.add(jid, *place)
                else:
                    early[jid] = place
                if k > 0 and overhead > 0:
                    charge[jid] = overhead / perf.t_iter(jid, batch[jid])
            elif jid in tracker.placed:
                tracker.remove(jid)
            else:
                early.pop(jid, None)
        wake = boundaries[cursor][0] if cursor < len(boundaries) else None
        rates, stopped = tracker.changes()
        return engine.Decision(rates, charge, wake, stop=stopped)

    jobs = [engine.EngineJob(j.id, j.arrival, float(j.iterations)) for j in instance.jobs]
    run = engine.simulate(jobs, policy)
    holdings = []
    for j in solution.jobs:
        finish = run.records[j.id].finish
        for seg in j.segments:
            end = finish if seg.stop is None else min(seg.stop, finish)
            holdings.append(Holding(j.id, seg.start, end, seg.gpus))
    return Replay(run, tuple(holdings))
