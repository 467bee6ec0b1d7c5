"""The online driver every sharing policy runs in: events, GPU bookkeeping, the schedule.

A policy is called at every event of :mod:`packgap.engine` (arrivals, finishes and the
wake-ups it asks for) with a :class:`View` of the cluster: which jobs hold which GPUs at
which sub-batch, the waiting queue, and every job's progress. It starts jobs with
:meth:`View.start` (and, if preemptive, stops them with :meth:`View.stop`); the driver
turns that into rates with the progress model of :mod:`packgap.sharing.progress` and
writes the :class:`~packgap.sharing.SharingSolution`, which the family's evaluator
replays independently.

The view keeps its answers up to date as jobs start and stop instead of scanning the
cluster: free GPUs per node, GPUs that hold one job, the queue in the policy's order, and
the rates of only the jobs whose co-runners changed (:class:`~packgap.sharing.progress.
CoLocation`). An event then costs time in the jobs it touches and the queue it walks.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from packgap import engine
from packgap.deadline import check
from packgap.sharing import JobSchedule, Perf, Segment, SharingInstance, SharingSolution
from packgap.sharing.instance import Job
from packgap.sharing.perf import steps
from packgap.sharing.progress import CoLocation, resume_cost_s


@dataclass
class Placed:
    job: Job
    gpus: tuple[int, ...]
    batch: int


@dataclass(frozen=True)
class LoneHolders:
    """Algorithm 1's G_OJ at one instant, the jobs holding GPUs alone in the order of their
    first such GPU: their instance rows, the count of those GPUs, the jobs' remaining solo
    times P_R, the memory left beside their workers (GB) and their model indices; and every
    lone GPU in GPU order with the row of its holder."""

    rows: np.ndarray
    count: np.ndarray
    remaining_solo: np.ndarray
    room: np.ndarray
    models: np.ndarray
    lone_gpus: np.ndarray
    owners: np.ndarray

    def gpus(self, k: int) -> list[int]:
        """The GPUs holder ``k`` holds alone, in GPU order."""
        return self.lone_gpus[self.owners == self.rows[k]].tolist()


#: A policy's static queue order: lower first, ties by arrival then id.
Priority = Callable[["View", Job], float]


class View:
    """The cluster as a policy sees it; ``start`` and ``stop`` are its only actions."""

    def __init__(self, instance: SharingInstance, perf: Perf, priority: Priority | None = None) -> None:
        self.instance = instance
        self.perf = perf
        self.now = 0.0
        self.holders: list[list[str]] = [[] for _ in range(instance.cluster.gpus)]
        #: A GPU holding one job takes a second only when C >= 2 (eq. 9; C = 1 forbids
        #: sharing, and SJF-FFS / SJF-BSBF once put two jobs on such a GPU: issue 17).
        self._shares = instance.cluster.max_jobs_per_gpu >= 2
        self.running: dict[str, Placed] = {}
        self.waiting: dict[str, Job] = {}
        #: Every job's progress as arrays in instance order, and the jobs that arrived and
        #: finished since the previous event (the engine's :class:`~packgap.engine.State`).
        self.columns = engine.Columns(*(np.zeros(len(instance.jobs)) for _ in range(3)))
        self.arrived: tuple[str, ...] = ()
        self.finished: tuple[str, ...] = ()
        self.log: dict[str, list[Segment]] = {}
        self.batches: dict[str, int] = {}
        self.co_runners: dict[str, str | None] = {}
        self.colocation = CoLocation(perf)
        self.started: list[str] = []
        self._stopped: set[str] = set()
        self._priority = priority
        self._keys: dict[str, tuple[float, float, str]] = {}
        self._queue: list[tuple[float, float, str]] = []
        self._queue_rows = np.zeros(0, dtype=np.intp)
        per_node = instance.cluster.gpus_per_node
        self._free: dict[int, list[int]] = {}
        for g in range(instance.cluster.gpus):
            self._free.setdefault(g // per_node, []).append(g)
        self.free_count = instance.cluster.gpus
        self._lone: set[int] = set()
        self._lone_cache: LoneHolders | None = None
        # Per job (instance order): solo iteration time and memory left beside its worker at
        # the sub-batch it runs at, and how many GPUs it holds alone (C >= 2 only).
        self._row = {j.id: i for i, j in enumerate(instance.jobs)}
        self._t_iter = np.zeros(len(instance.jobs))
        self._room = np.zeros(len(instance.jobs))
        self.lone_count = np.zeros(len(instance.jobs), dtype=np.intp)
        self._owner = np.full(instance.cluster.gpus, -1, dtype=np.intp)
        self._first_lone = np.zeros(len(instance.jobs), dtype=np.intp)
        self._lone_moved: set[int] = set()

    def begin_event(self, state: engine.State) -> None:
        """Take the engine's clock, progress and news; forget the previous event's starts."""
        self.now, self.columns = state.now, state.columns
        self.arrived, self.finished = state.arrived, state.finished
        self.started, self._stopped = [], set()
        self._lone_cache = None

    def free_consolidated(self, count: int) -> list[int]:
        """:func:`consolidated` over the free GPUs."""
        return _consolidate(self._free, count)

    def shareable(self) -> int:
        """GPUs holding no job, or one job where C >= 2: the most a waiting job could be given now."""
        return self.free_count + len(self._lone)

    def lone_gpus(self) -> list[int]:
        """GPUs that hold exactly one job and may take a second, in GPU order."""
        return sorted(self._lone)

    def lone_holders(self) -> LoneHolders:
        """The jobs holding GPUs that may take a second job (Algorithm 1's G_OJ) with what
        Algorithm 2 needs of each, cached until the cluster changes. P_R is the holder's
        remaining iterations times its solo iteration time at its sub-batch."""
        if self._lone_cache is None:
            gpus = (self._owner >= 0).nonzero()[0]
            owners = self._owner[gpus]
            # Each holder once, at its first lone GPU (no sort: the GPUs come in order, and of
            # repeated indices the last assignment stays, so the reversed order leaves the first).
            first = self._first_lone
            first[owners[::-1]] = gpus[::-1]
            rows = owners[first[owners] == gpus]
            left = np.maximum(0.0, self.columns.work[rows] - self.columns.done[rows])
            self._lone_cache = LoneHolders(
                rows,
                self.lone_count[rows],
                left * self._t_iter[rows],
                self._room[rows],
                self.perf.model_rows[rows],
                gpus,
                owners,
            )
        return self._lone_cache

    def lone_room(self) -> tuple[np.ndarray, np.ndarray]:
        """The GPUs that hold one job and may take a second, in GPU order, and the memory left
        beside that job's worker on each (GB)."""
        lone = self.lone_holders()
        return lone.lone_gpus, self._room[lone.owners]

    def queue(self) -> Iterator[Job]:
        """The waiting jobs in the policy's priority order (as they were when called)."""
        return (self.waiting[jid] for _, _, jid in list(self._queue))

    def queue_rows(self) -> np.ndarray:
        """The instance rows of :meth:`queue` (an array that later starts and arrivals leave as it is)."""
        return self._queue_rows

    def take_lone_moves(self) -> list[int]:
        """The rows of the jobs whose :attr:`lone_count` changed since the previous call."""
        moved = list(self._lone_moved)
        self._lone_moved.clear()
        return moved

    def arrive(self, job: Job) -> None:
        self.waiting[job.id] = job
        if self._priority is not None:
            key = self._key(job)
            at = bisect.bisect(self._queue, key)
            self._queue.insert(at, key)
            rows = self._queue_rows
            self._queue_rows = np.concatenate((rows[:at], [self._row[job.id]], rows[at:]))

    def _key(self, job: Job) -> tuple[float, float, str]:
        if job.id not in self._keys:
            assert self._priority is not None
            self._keys[job.id] = (self._priority(self, job), job.arrival, job.id)
        return self._keys[job.id]

    def start(self, job: Job, gpus: Sequence[int], batch: int) -> None:
        """Start (or resume) ``job`` on ``gpus`` at sub-batch ``batch``, now."""
        co = next((h for g in gpus for h in self.holders[g]), None)
        for g in gpus:
            self._hold(g, job.id)
        self.running[job.id] = Placed(job, tuple(gpus), batch)
        row = self._row[job.id]
        self._t_iter[row] = self.perf.t_iter(job.id, batch)
        self._room[row] = self.instance.cluster.gpu_memory_gb - self.perf.memory(job.id, batch)
        del self.waiting[job.id]
        if self._priority is not None:
            at = bisect.bisect_left(self._queue, self._key(job))
            del self._queue[at]
            self._queue_rows = np.concatenate((self._queue_rows[:at], self._queue_rows[at + 1 :]))
        if job.id not in self.log:
            self.co_runners[job.id] = co
            self.batches[job.id] = batch
        self.log.setdefault(job.id, []).append(Segment(self.now, tuple(gpus)))
        self.colocation.add(job.id, tuple(gpus), batch)
        if job.id not in self._stopped:
            self.started.append(job.id)

    def stop(self, job_id: str) -> None:
        """Preempt a running job: it keeps its progress and goes back to the queue."""
        placed = self.release(job_id)
        segs = self.log[job_id]
        segs[-1] = Segment(segs[-1].start, segs[-1].gpus, self.now)
        self._stopped.add(job_id)
        self.arrive(placed.job)

    def release(self, job_id: str, finished: bool = False) -> Placed:
        placed = self.running.pop(job_id)
        for g in placed.gpus:
            self._unhold(g, job_id)
        self.colocation.remove(job_id, finished)
        return placed

    def _hold(self, gpu: int, job_id: str) -> None:
        held = self.holders[gpu]
        if not held:
            node = gpu // self.instance.cluster.gpus_per_node
            self._free[node].remove(gpu)
            if not self._free[node]:
                del self._free[node]
            self.free_count -= 1
            if self._shares:
                self._lone_move(gpu, job_id, 1)
        elif gpu in self._lone:
            self._lone_move(gpu, held[0], -1)
        held.append(job_id)
        self._lone_cache = None

    def _unhold(self, gpu: int, job_id: str) -> None:
        held = self.holders[gpu]
        held.remove(job_id)
        if not held:
            bisect.insort(self._free.setdefault(gpu // self.instance.cluster.gpus_per_node, []), gpu)
            self.free_count += 1
            if gpu in self._lone:
                self._lone_move(gpu, job_id, -1)
        elif len(held) == 1 and self._shares:
            self._lone_move(gpu, held[0], 1)
        self._lone_cache = None

    def _lone_move(self, gpu: int, job_id: str, step: int) -> None:
        """``gpu`` becomes (step 1) or stops being (step -1) a GPU ``job_id`` holds alone."""
        row = self._row[job_id]
        if step > 0:
            self._lone.add(gpu)
            self._owner[gpu] = row
        else:
            self._lone.discard(gpu)
            self._owner[gpu] = -1
        self.lone_count[row] += step
        self._lone_moved.add(row)


#: ``policy(view) -> wake-up time or None``; it calls ``view.start`` / ``view.stop``.
OnlinePolicy = Callable[[View], "float | None"]


def run_online(
    instance: SharingInstance,
    policy: OnlinePolicy,
    *,
    preemptive: bool = False,
    priority: Priority | None = None,
    resume_overhead_s: float = 0.0,
) -> SharingSolution:
    """Simulate ``policy`` over the whole workload and return its schedule; ``priority``
    orders :meth:`View.queue`; each resume pays the cluster's ``preemption_overhead_s`` plus
    ``resume_overhead_s`` (:func:`~packgap.sharing.progress.resume_cost_s`). The deadline in
    force (:mod:`packgap.deadline`) is checked at every event."""
    view = View(instance, Perf(instance), priority)
    jobs = {j.id: j for j in instance.jobs}
    overhead = resume_cost_s(instance, resume_overhead_s)

    def step(state: engine.State) -> engine.Decision:
        check()
        view.begin_event(state)
        for jid in state.finished:
            view.release(jid, finished=True)
        for jid in state.arrived:
            view.arrive(jobs[jid])
        wake = policy(view)
        rates, stopped = view.colocation.changes()
        charge = {}
        for jid in view.started if overhead > 0 else ():
            if jid in view.running and len(view.log[jid]) > 1:
                charge[jid] = overhead / view.perf.t_iter(jid, view.running[jid].batch)
        return engine.Decision(rates, charge, wake, stop=stopped)

    run = engine.simulate([engine.EngineJob(j.id, j.arrival, float(j.iterations)) for j in instance.jobs], step)
    out = []
    for j in instance.jobs:
        b, finish = view.batches[j.id], run.records[j.id].finish
        out.append(JobSchedule(j.id, b, steps(j.batch, b), tuple(view.log[j.id]), finish, view.co_runners[j.id]))
    return SharingSolution(tuple(out), preemptive, resume_overhead_s)


def consolidated(free: Sequence[int], count: int, gpus_per_node: int) -> list[int]:
    """``count`` of the ``free`` GPUs on as few nodes as possible (Algorithm 1, lines 6-7).

    One node if any can hold the job: the one with the fewest free GPUs that suffices (best
    fit keeps larger blocks for larger jobs); otherwise the nodes with most free GPUs first.
    Ties go to the lower node id.
    """
    by_node: dict[int, list[int]] = {}
    for g in free:
        by_node.setdefault(g // gpus_per_node, []).append(g)
    return _consolidate(by_node, count)


def _consolidate(by_node: Mapping[int, list[int]], count: int) -> list[int]:
    fits = [n for n, gs in by_node.items() if len(gs) >= count]
    if fits:
        node = min(fits, key=lambda n: (len(by_node[n]), n))
        return by_node[node][:count]
    out: list[int] = []
    for n in sorted(by_node, key=lambda n: (-len(by_node[n]), n)):
        out.extend(by_node[n][: count - len(out)])
        if len(out) == count:
            break
    return out
