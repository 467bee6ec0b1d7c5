"""Brute-force sharing optimum over non-preemptive schedules that start jobs at events.

From the family's definition (SJF-BSBF eqs. 3-9, :mod:`packgap.sharing.progress`): a job
runs once, from its start to its finish, on G_j GPUs at a sub-batch b of Algorithm 2's
ladder B, ceil(B/2), ..., 1; at most C jobs hold a GPU and their workers' memory fits; a
running job makes 1 / (t_iter(b) x xi) iterations per second, xi the largest over its
co-runners (1 alone). Rates change only at events (arrivals, starts, finishes), so the
search walks the events: at each one it starts any arrived job on any GPUs and sub-batch
that fit (several jobs at one event in index order; GPUs holding the same jobs are
interchangeable), or waits for the next event. Every such schedule is simulated here, and
the best one is rebuilt as a solution, validated and scored by the evaluator.
"""

from __future__ import annotations

import itertools
import math

from packgap.sharing import FAMILY, JobSchedule, Segment, SharingInstance, SharingSolution
from packgap.sharing.perf import Perf, ladder, steps

Start = tuple[int, float, tuple[int, ...], int]  # job index, start, GPUs, sub-batch


def optimum(instance: SharingInstance) -> tuple[float, SharingSolution]:
    perf = Perf(instance)
    jobs = instance.jobs
    cap, memory = instance.cluster.max_jobs_per_gpu, instance.cluster.gpu_memory_gb
    best, best_starts = math.inf, ()

    def rate(j: int, running: dict[int, tuple[tuple[int, ...], int, float]]) -> float:
        gpus, b, _ = running[j]
        partners = [k for k, (other, _, _) in running.items() if k != j and set(other) & set(gpus)]
        xi = max((perf.xi(jobs[j].id, jobs[k].id) for k in partners), default=1.0)
        return 1.0 / (perf.t_iter(jobs[j].id, b) * xi)

    def options(j: int, running: dict[int, tuple[tuple[int, ...], int, float]]) -> list[tuple[tuple[int, ...], int]]:
        holders = {g: [k for k, (gpus, _, _) in running.items() if g in gpus] for g in range(instance.cluster.gpus)}
        used = {g: sum(perf.memory(jobs[k].id, running[k][1]) for k in ks) for g, ks in holders.items()}
        out, seen = [], set()
        for gpus in itertools.combinations(range(instance.cluster.gpus), jobs[j].gpus):
            if any(len(holders[g]) >= cap for g in gpus):
                continue
            key = tuple(sorted(tuple(holders[g]) for g in gpus))
            if key in seen:
                continue
            seen.add(key)
            for b in ladder(jobs[j].batch):
                if all(used[g] + perf.memory(jobs[j].id, b) <= memory + 1e-9 for g in gpus):
                    out.append((gpus, b))
        return out

    def walk(
        t: float, running: dict, waiting: frozenset[int], finished: dict[int, float], starts: tuple, last: int
    ) -> None:
        nonlocal best, best_starts
        if not running and not waiting:
            value = sum(finished[j] - jobs[j].arrival for j in finished)
            if value < best:
                best, best_starts = value, starts
            return
        for j in sorted(waiting):
            if j > last and jobs[j].arrival <= t:
                for gpus, b in options(j, running):
                    now = {**running, j: (gpus, b, float(jobs[j].iterations))}
                    walk(t, now, waiting - {j}, finished, (*starts, (j, t, gpus, b)), j)
        arrivals = [jobs[j].arrival for j in waiting if jobs[j].arrival > t]
        rates = {j: rate(j, running) for j in running}
        ends = [t + left / rates[j] for j, (_, _, left) in running.items()]
        upcoming = min(arrivals + ends, default=None)
        if upcoming is None:
            return
        done = {j for j, end in zip(running, ends, strict=True) if end <= upcoming}
        later = {
            j: (gpus, b, left - rates[j] * (upcoming - t)) for j, (gpus, b, left) in running.items() if j not in done
        }
        walk(upcoming, later, waiting, finished | dict.fromkeys(done, upcoming), starts, -1)

    walk(0.0, {}, frozenset(range(len(jobs))), {}, (), -1)
    solution = _solution(instance, best_starts)
    FAMILY.validate(instance, solution)
    value = FAMILY.evaluate(instance, solution).objective
    assert math.isclose(value, best / len(jobs), rel_tol=1e-9), (value, best / len(jobs))
    return value, solution


def _solution(instance: SharingInstance, starts: tuple[Start, ...]) -> SharingSolution:
    """The start list as a schedule; finishes from a replay of the starts (the evaluator's)."""
    from packgap.sharing.progress import replay

    def build(finish: dict[str, float]) -> SharingSolution:
        out = []
        for j, t, gpus, b in starts:
            job = instance.jobs[j]
            holder = next(
                (
                    instance.jobs[k].id
                    for k, s, other, _ in starts
                    if k != j and s <= t and finish.get(instance.jobs[k].id, math.inf) > t and set(other) & set(gpus)
                ),
                None,
            )
            out.append(
                JobSchedule(job.id, b, steps(job.batch, b), (Segment(t, gpus),), finish.get(job.id, 0.0), holder)
            )
        return SharingSolution(tuple(out))

    first = build({})
    records = replay(instance, first).run.records
    return build({jid: r.finish for jid, r in records.items()})
