"""Online packing: jobs arrive over time and a policy re-plans the waiting queue (CUCKOO 3.1, 4.2).

CUCKOO enqueues each profiled job and its Job Packer "pops up jobs from the waiting queue";
a group that can only be scheduled by violating constraints is "repopulated into the queue
for future scheduling attempts" (section 3.1). :func:`simulate` replays an instance's
arrivals against such a policy:

* the policy is injected: ``replan(view) -> [Start, ...]`` sees an immutable :class:`View`
  (the time, the waiting jobs as a :class:`PackingInstance` that holds no future arrival,
  the free GPUs per type, the running groups with their end) and names the groups to start
  *now*, each with its GPU type and GPUs;
* re-planning happens in rounds every ``interval_s`` seconds (the reading chosen: section
  3.1's "future scheduling attempts" are periodic; 60 s by default), and with
  ``on_events=True`` also at every arrival and completion (Muri's event-driven simulator;
  ``interval_s=None`` then leaves only the events). A round is skipped when nothing waits or
  no GPU is free, since no group could start;
* groups are never preempted: a group holds its GPUs from its start until its last job
  ends, for the duration of its exact timeline (:mod:`packgap.packing.timeline`) under the
  instance's ground-truth interleaving model, whatever the policy estimated.

The result is a :class:`~packgap.packing.solution.PackingSolution` (scored by the family's
validator and evaluator, never here), the per-job start and completion from
:func:`packgap.packing.evaluate.outcomes`, and two step series: jobs waiting and groups
running, each ``(time, value)`` holding until the next point (Fig. 9).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from packgap.errors import PackgapError
from packgap.packing.evaluate import JobOutcome, outcomes
from packgap.packing.instance import Job, PackingInstance
from packgap.packing.solution import PackingSolution, PlacedGroup
from packgap.packing.solution import to_dict as solution_to_dict
from packgap.packing.timeline import MAX_GROUP, timeline

DEFAULT_INTERVAL_S = 60.0

Series = tuple[tuple[float, int], ...]


@dataclass(frozen=True)
class RunningGroup:
    jobs: tuple[str, ...]
    gpu_type: str
    gpus: tuple[int, ...]
    start: float
    end: float


@dataclass(frozen=True)
class View:
    """What a policy may know at ``now``: ``free[k]`` are the idle GPUs of ``queue.gpu_types[k]``."""

    now: float
    queue: PackingInstance
    free: tuple[tuple[int, ...], ...]
    running: tuple[RunningGroup, ...]


@dataclass(frozen=True)
class Start:
    """A decision: start ``jobs`` (1 to 4 waiting jobs) now on these GPUs of ``gpu_type``."""

    jobs: tuple[str, ...]
    gpu_type: str
    gpus: tuple[int, ...]


Replan = Callable[[View], Sequence[Start]]


@dataclass(frozen=True)
class OnlineRun:
    solution: PackingSolution
    jobs: tuple[JobOutcome, ...]
    queue: Series
    running: Series
    replans: int
    interval_s: float | None
    on_events: bool


class _Cluster:
    """Free GPUs per type, running groups by end time, and the groups placed so far."""

    def __init__(self, instance: PackingInstance) -> None:
        self.instance = instance
        self.free = [set(range(t.count)) for t in instance.gpu_types]
        self.heap: list[tuple[float, int, RunningGroup]] = []
        self.placed: list[PlacedGroup] = []

    def release(self, now: float) -> bool:
        released = False
        while self.heap and self.heap[0][0] <= now:
            _, _, group = heapq.heappop(self.heap)
            self.free[self.instance.type_names.index(group.gpu_type)].update(group.gpus)
            released = True
        return released

    def start(self, now: float, start: Start, waiting: dict[str, Job]) -> None:
        problems = _start_problems(self.instance, start, waiting, self.free)
        if problems:
            raise PackgapError(f"online policy at t={now}: " + "; ".join(problems))
        k = self.instance.type_names.index(start.gpu_type)
        jobs = [waiting.pop(j) for j in start.jobs]
        duration = timeline(jobs, k, start.gpu_type, self.instance.interleaving, self.instance.interference).duration
        self.free[k].difference_update(start.gpus)
        group = RunningGroup(start.jobs, start.gpu_type, tuple(sorted(start.gpus)), now, now + duration)
        heapq.heappush(self.heap, (group.end, len(self.placed), group))
        self.placed.append(PlacedGroup(group.jobs, group.gpu_type, group.gpus, now))

    def view(self, now: float, waiting: dict[str, Job]) -> View:
        queue = replace(self.instance, jobs=tuple(waiting.values()))
        running = tuple(g for _, _, g in sorted(self.heap))
        return View(now, queue, tuple(tuple(sorted(f)) for f in self.free), running)


def _start_problems(
    instance: PackingInstance, start: Start, waiting: dict[str, Job], free: list[set[int]]
) -> list[str]:
    """What makes ``start`` impossible now: the simulator never double-books a GPU or a job."""
    problems = []
    if not 1 <= len(start.jobs) <= MAX_GROUP or len(set(start.jobs)) != len(start.jobs):
        problems.append(f"group {start.jobs} must hold 1 to {MAX_GROUP} distinct jobs")
    problems += [f"job {j!r} is not waiting" for j in start.jobs if j not in waiting]
    if start.gpu_type not in instance.type_names:
        return [*problems, f"unknown GPU type {start.gpu_type!r}"]
    idle = free[instance.type_names.index(start.gpu_type)]
    if len(set(start.gpus)) != len(start.gpus) or not set(start.gpus) <= idle:
        problems.append(f"GPUs {start.gpus} of {start.gpu_type!r} are not all distinct and free")
    return problems


def _record(series: list[tuple[float, int]], now: float, value: int) -> None:
    if series[-1][0] == now:
        series[-1] = (now, value)
        if len(series) > 1 and series[-2][1] == value:
            series.pop()
    elif series[-1][1] != value:
        series.append((now, value))


def simulate(
    instance: PackingInstance,
    replan: Replan,
    *,
    interval_s: float | None = DEFAULT_INTERVAL_S,
    on_events: bool = False,
) -> OnlineRun:
    """Replay ``instance``'s arrivals against ``replan`` (module docstring); deterministic."""
    if interval_s is None and not on_events:
        raise PackgapError("online simulation needs interval_s > 0, on_events=True, or both")
    if interval_s is not None and not interval_s > 0:
        raise PackgapError(f"interval_s must be > 0, got {interval_s}")
    arrivals = sorted(instance.jobs, key=lambda j: j.arrival)
    cluster = _Cluster(instance)
    waiting: dict[str, Job] = {}
    queue, running = [(0.0, 0)], [(0.0, 0)]
    nxt, tick, replans = 0, 0, 0
    while nxt < len(arrivals) or waiting or cluster.heap:
        candidates = [arrivals[nxt].arrival] if nxt < len(arrivals) else []
        candidates += [cluster.heap[0][0]] if cluster.heap else []
        can_start = bool(waiting) and any(cluster.free)
        if interval_s is not None and can_start:
            candidates.append(tick * interval_s)
        if not candidates:
            raise PackgapError(f"online policy left {len(waiting)} job(s) waiting on an idle cluster")
        now = min(candidates)
        event = cluster.release(now)
        while nxt < len(arrivals) and arrivals[nxt].arrival <= now:
            waiting[arrivals[nxt].id] = arrivals[nxt]
            nxt, event = nxt + 1, True
        is_tick = interval_s is not None and tick * interval_s == now
        if (is_tick or (on_events and event)) and waiting and any(cluster.free):
            starts = replan(cluster.view(now, waiting))
            replans += 1
            for start in starts:
                cluster.start(now, start, waiting)
            if not starts and not cluster.heap and nxt == len(arrivals):
                raise PackgapError(
                    f"online policy started nothing at t={now} on an idle cluster "
                    f"with {len(waiting)} job(s) waiting and no arrival to come"
                )
        if interval_s is not None:
            tick = max(tick, int(now // interval_s))
            while tick * interval_s <= now:
                tick += 1
        _record(queue, now, len(waiting))
        _record(running, now, len(cluster.heap))
    solution = PackingSolution(tuple(cluster.placed))
    return OnlineRun(
        solution, tuple(outcomes(instance, solution)), tuple(queue), tuple(running), replans, interval_s, on_events
    )


def to_dict(run: OnlineRun) -> dict[str, Any]:
    """The run as a JSON document (canonical bytes through :func:`packgap.jsonio.dumps`)."""
    return {
        "interval_s": run.interval_s,
        "on_events": run.on_events,
        "replans": run.replans,
        "solution": solution_to_dict(run.solution),
        "jobs": [{"job": o.job, "group": o.group, "start": o.start, "completion": o.completion} for o in run.jobs],
        "queue": [list(p) for p in run.queue],
        "running": [list(p) for p in run.running],
    }
