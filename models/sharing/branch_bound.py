"""Exact offline optimum of small sharing instances: event-driven branch and bound.

The problem is SJF-BSBF's model (section IV) offline: every job's arrival is known; a
schedule picks each job's start, its G_j GPUs (at most C jobs per GPU, memory fits) and
its sub-batch b on Algorithm 2's ladder B, ceil(B/2), ..., 1, without preemption, to
minimise the sum of completion times (eq. 15).

Why branching on events suffices: with the order of all starts and finishes fixed, every
finish is an affine function of the start times (rates are piecewise constant, eqs. 5-7),
so the objective is linear over a polyhedron and an optimum sits at a vertex, where each
start equals an arrival or some finish (or another start, which recursively equals one of
those). Theorem 1 is the two-job case of this argument. So at each event time (an arrival
or a finish) the search either starts one more waiting job or advances to the next event.
Simultaneous starts are tried in every order, since a job's sub-batch depends on who is
already on its GPUs; the transposition table merges the orders that end in one state.

Symmetry: GPUs are identical and eq. 4 has no topology term, so a GPU is characterised by
the set of jobs it holds; an allocation is a count per such class, and the lowest GPU ids
of a class are taken. Bound at a node: finished jobs' completions plus, for every other
job, max(now, a_j) plus its least remaining solo time (xi >= 1). The incumbent starts
from the best of the online heuristics.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from models.sharing.bound import min_solo_time
from packgap.sharing import JobSchedule, Perf, Segment, SharingInstance, SharingSolution
from packgap.sharing.perf import ladder, steps
from packgap.sharing.progress import TIME_TOL, co_located_rates, replay

#: Relative tolerance of the prune: a node whose bound is within it of the incumbent is cut.
PRUNE_TOL = 1e-9


@dataclass(frozen=True)
class Start:
    job: int
    time: float
    gpus: tuple[int, ...]
    batch: int


@dataclass
class Outcome:
    solution: SharingSolution
    sum_completion: float
    proven: bool
    nodes: int


#: Running jobs: job index -> (GPU ids, sub-batch, iterations left).
Running = dict[int, tuple[tuple[int, ...], int, float]]


def _srpt(release: list[float], work: list[float], speed: float) -> float:
    """Sum of completion times of preemptive SRPT on one machine of ``speed`` (optimal)."""
    order = sorted(range(len(work)), key=lambda i: release[i])
    left: list[tuple[float, int]] = []
    total, now, k = 0.0, 0.0, 0
    while k < len(order) or left:
        if not left:
            now = max(now, release[order[k]])
        while k < len(order) and release[order[k]] <= now:
            heapq.heappush(left, (work[order[k]], order[k]))
            k += 1
        rest, i = heapq.heappop(left)
        nxt = release[order[k]] if k < len(order) else math.inf
        if now + rest / speed <= nxt:
            now += rest / speed
            total += now
        else:
            heapq.heappush(left, (rest - (nxt - now) * speed, i))
            now = nxt
    return total


class _Search:
    def __init__(self, instance: SharingInstance, deadline: float, max_nodes: int, every_batch: bool) -> None:
        self.inst, self.perf = instance, Perf(instance)
        self.ids = [j.id for j in instance.jobs]
        self.solo = [min_solo_time(instance, i) for i in range(len(instance.jobs))]
        self.deadline, self.max_nodes, self.every_batch = deadline, max_nodes, every_batch
        self.best = math.inf
        self.best_starts: list[Start] = []
        self.nodes = 0
        self.stopped = False
        self.seen: dict[tuple[object, ...], float] = {}
        self.cache: dict[tuple[object, ...], list[tuple[tuple[int, ...], int]]] = {}
        # Least capacity share of a GPU-second of job j: alone 1, beside a partner xi / C.
        share = [
            min([1.0, *(perf_xi / instance.cluster.max_jobs_per_gpu for perf_xi in self._xis(j))])
            for j in range(len(instance.jobs))
        ]
        self.capacity = [j.gpus * f for j, f in zip(instance.jobs, share, strict=True)]

    def _xis(self, j: int) -> list[float]:
        return [self.perf.xi(self.ids[j], other) for other in self.ids if other != self.ids[j]]

    def allocations(self, holders: list[list[int]], job: int) -> Iterator[tuple[int, ...]]:
        """Every allocation of G_j GPUs up to symmetry: counts per class of equal holders."""
        classes: dict[tuple[int, ...], list[int]] = {}
        for g, h in enumerate(holders):
            if len(h) < self.inst.cluster.max_jobs_per_gpu:
                classes.setdefault(tuple(sorted(h)), []).append(g)
        keys = sorted(classes, key=len)
        need = self.inst.jobs[job].gpus
        room = [0] * (len(keys) + 1)
        for k in range(len(keys) - 1, -1, -1):
            room[k] = room[k + 1] + len(classes[keys[k]])

        def rec(k: int, left: int) -> Iterator[list[int]]:
            if left == 0:
                yield []
                return
            gpus = classes[keys[k]]
            for take in range(min(left, len(gpus)), max(0, left - room[k + 1]) - 1, -1):
                for rest in rec(k + 1, left - take):
                    yield gpus[:take] + rest

        if room[0] < need:
            return
        for gpus in rec(0, need):
            yield tuple(sorted(gpus))

    def batches(self, holders: list[list[int]], running: Running, job: int, gpus: tuple[int, ...]) -> list[int]:
        mem = self.inst.cluster.gpu_memory_gb
        room = min(mem - sum(self.perf.memory(self.ids[h], running[h][1]) for h in holders[g]) for g in gpus)
        jid = self.ids[job]
        fits = [b for b in ladder(self.inst.jobs[job].batch) if self.perf.memory(jid, b) <= room + 1e-9]
        return fits if self.every_batch else fits[:1]

    def moves(self, holders: list[list[int]], running: Running, job: int) -> list[tuple[tuple[int, ...], int]]:
        """Every (GPUs, sub-batch) start of ``job`` in this state (cached: states repeat)."""
        key = (job, tuple(tuple(h) for h in holders), tuple(sorted((j, v[1]) for j, v in running.items())))
        if key not in self.cache:
            self.cache[key] = [
                (gpus, b) for gpus in self.allocations(holders, job) for b in self.batches(holders, running, job, gpus)
            ]
        return self.cache[key]

    def bound(self, now: float, done: float, running: Running, pending: list[int]) -> float:
        """Finished completions plus the larger of two relaxations of the rest (models.sharing.bound)."""
        release, solo, work = [], [], []
        for j, (_, b, left) in running.items():
            release.append(now)
            solo.append(left * self.perf.t_iter(self.ids[j], b))
            work.append(self.capacity[j] * solo[-1])
        for j in pending:
            release.append(max(now, self.inst.jobs[j].arrival))
            solo.append(self.solo[j])
            work.append(self.capacity[j] * solo[-1])
        alone = sum(release) + sum(solo)
        return done + max(alone, _srpt(release, work, float(self.inst.cluster.gpus)))

    def search(
        self,
        now: float,
        done: float,
        running: Running,
        pending: list[int],
        starts: list[Start],
    ) -> None:
        self.nodes += 1
        if self.nodes % 256 == 0 and (time.perf_counter() > self.deadline or self.nodes > self.max_nodes):
            self.stopped = True
        if self.stopped or self.bound(now, done, running, pending) >= self.best * (1 - PRUNE_TOL):
            return
        if not running and not pending:
            self.best, self.best_starts = done, list(starts)
            return
        holders: list[list[int]] = [[] for _ in range(self.inst.cluster.gpus)]
        for j, (gpus, _, _) in running.items():
            for g in gpus:
                holders[g].append(j)
        # Two paths to one state up to a relabelling of GPUs: only the cheaper one goes on.
        key = (
            round(now, 6),
            tuple(sorted((j, b, round(left, 6)) for j, (_, b, left) in running.items())),
            tuple(sorted(tuple(h) for h in holders)),
            tuple(pending),
        )
        if self.seen.get(key, math.inf) <= done:
            return
        self.seen[key] = done
        ready = sorted((j for j in pending if self.inst.jobs[j].arrival <= now + TIME_TOL), key=lambda j: self.solo[j])
        for j in ready:
            rest = [p for p in pending if p != j]
            for gpus, b in self.moves(holders, running, j):
                running[j] = (gpus, b, float(self.inst.jobs[j].iterations))
                starts.append(Start(j, now, gpus, b))
                self.search(now, done, running, rest, starts)
                starts.pop()
                del running[j]
        self.advance(now, done, running, pending, starts)

    def advance(
        self,
        now: float,
        done: float,
        running: Running,
        pending: list[int],
        starts: list[Start],
    ) -> None:
        """Move to the next arrival or finish; finished jobs add their completion time."""
        future = [self.inst.jobs[j].arrival for j in pending if self.inst.jobs[j].arrival > now + TIME_TOL]
        rates = co_located_rates(self.perf, {self.ids[j]: (g, b) for j, (g, b, _) in running.items()})
        finishes = [left / rates[self.ids[j]] for j, (_, _, left) in running.items()]
        step = min([*finishes, *(a - now for a in future)], default=math.inf)
        if not math.isfinite(step):
            return
        # Land exactly on an arrival, so float round-off never leaves it in the future.
        landing = min(future, default=math.inf)
        later_now = landing if landing - now <= step else now + step
        later: Running = {}
        for (j, (g, b, left)), f in zip(running.items(), finishes, strict=True):
            if f <= step * (1 + 1e-12):
                done += now + f
            else:
                later[j] = (g, b, left - rates[self.ids[j]] * step)
        self.search(later_now, done, later, pending, starts)


def solve(
    instance: SharingInstance,
    incumbent: SharingSolution | None,
    *,
    time_limit: float | None,
    max_nodes: int = 5_000_000,
    every_batch: bool = False,
    on_start: Callable[[], None] | None = None,
) -> Outcome:
    """Branch and bound; ``proven`` when the search ran to the end (the optimum is proven)."""
    deadline = math.inf if time_limit is None else time.perf_counter() + time_limit
    search = _Search(instance, deadline, max_nodes, every_batch)
    index = {j.id: i for i, j in enumerate(instance.jobs)}
    if incumbent is not None:
        search.best = sum(r.finish for r in replay(instance, incumbent, search.perf).run.records.values())
    if on_start is not None:
        on_start()
    search.search(0.0, 0.0, {}, list(range(len(instance.jobs))), [])
    if not search.best_starts:
        assert incumbent is not None, "the search always finds a schedule without an incumbent"
        return Outcome(incumbent, search.best, not search.stopped, search.nodes)
    by_job = {s.job: s for s in search.best_starts}
    draft = SharingSolution(
        tuple(
            JobSchedule(j.id, s.batch, steps(j.batch, s.batch), (Segment(s.time, s.gpus),), 0.0)
            for j in instance.jobs
            for s in (by_job[index[j.id]],)
        )
    )
    finish = {jid: r.finish for jid, r in replay(instance, draft, search.perf).run.records.items()}
    solution = SharingSolution(
        tuple(
            JobSchedule(j.id, j.batch, j.steps, j.segments, finish[j.id], _co_runner(j, draft, finish))
            for j in draft.jobs
        )
    )
    return Outcome(solution, search.best, not search.stopped, search.nodes)


def _co_runner(job: JobSchedule, draft: SharingSolution, finish: dict[str, float]) -> str | None:
    """The job holding one of ``job``'s GPUs when it starts (from the replayed finishes)."""
    for other in draft.jobs:
        holds = other.start <= job.start < finish[other.id]
        if other.id != job.id and holds and set(other.gpus) & set(job.gpus):
            return other.id
    return None
