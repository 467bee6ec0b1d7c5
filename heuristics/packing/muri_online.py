"""Muri-S and Muri-L online, as Muri's released simulator runs them (Muri, SIGCOMM'22,
section 5; GitHub Rivendile/Muri, commit 4e69a78, ``simulator/run_sim.py``
``multi_resource_blossom_same_sim_jobs``).

Muri's scheduler is event-driven and preemptive: it re-forms every group at every arrival
and completion. At each event:

1. Jobs that end now leave; arrivals join the end of the job list, waiting. A completion
   within ``coincide_s`` (1e-4 s) of the next arrival is handled at the arrival.
2. Every running job advances by ``max(dt - o, 0)`` over its group's iteration time, ``dt``
   the time since the last event and ``o`` its restart overhead: the sum over its group's
   members of Muri's profiled start-up time for (the job's GPU count, the member's model)
   (``overhead_dict``, 4-46 s; 10 s for another model), charged at every event to every
   running job, regrouped or not. A job's predicted end excludes ``o``.
3. The job list is sorted, stably, so that ties keep the previous event's order, by
   *Muri-S* (``--schedule=multi-resource-blossom-same-gpu``): the remaining GPU time
   (remaining iterations x standalone iteration time x GPUs; before a job first runs, the
   trace's ``duration`` x GPUs), or *Muri-L* (``...-unaware``): the attained GPU time (wall
   seconds run, overhead included, x GPUs; plain least-attained-service, no queues).
4. Candidates: walking the list, each job whose GPUs still fit takes them and brings itself
   and the next jobs of its GPU count, ``packing_num`` in all.
5. The candidates are grouped by Muri's matching rounds
   (:func:`packgap.heuristics.packing.muri.match_round`, ``cluster_gpu`` = the cluster's
   GPUs); ``autopack`` splits a group slower than its members' summed standalone times.
6. Groups are admitted in order of their smallest member's sort key while their GPUs fit
   (a group that does not fit is skipped), then placed by GPU count, widest first; a running
   job left out is preempted (it keeps its progress).

Iteration times are Muri's (:func:`packgap.packing.interleave.muri_group_iteration`): a job
alone runs its measured iteration time x 1.015, a group the ``multi_resource`` recurrence x
its packed-time factor. GPUs are counted, not placed (Muri's ``--scheme=count``; its ``yarn``
placement gives the same completions on Muri's traces). Muri's clusters are homogeneous: the
instance must have one GPU type.

Events are merged as Muri merges them: predicted ends, and arrivals, within a relative
``merge_rel`` (1e-9) of an earlier one share its event (``util.search_dict_list``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from packgap.errors import PackgapError
from packgap.heuristics.packing.muri import MuriOptions, Node, autopacked, blossom_rounds, check_flags, group_ms
from packgap.packing import Job, PackingInstance

Order = Literal["srsf", "las"]

#: Muri's profiled restart overhead (s) by GPU count and model (``run_sim.py: overhead_dict``).
OVERHEAD_S: dict[int, dict[str, float]] = {
    1: {"vgg16": 7, "vgg19": 7, "resnet18": 4, "shufflenet_v2_x1_0": 4, "bert": 10, "gpt2": 10, "a2c": 38, "dqn": 5},
    2: {"vgg16": 7, "vgg19": 7, "resnet18": 5, "shufflenet_v2_x1_0": 4, "bert": 10, "gpt2": 10, "a2c": 39, "dqn": 5},
    4: {"vgg16": 8, "vgg19": 8, "resnet18": 5, "shufflenet_v2_x1_0": 5, "bert": 10, "gpt2": 10, "a2c": 39, "dqn": 6},
    8: {"vgg16": 9, "vgg19": 9, "resnet18": 7, "shufflenet_v2_x1_0": 5, "bert": 10, "gpt2": 10, "a2c": 46, "dqn": 6},
    16: {"vgg16": 9, "vgg19": 10, "resnet18": 7, "shufflenet_v2_x1_0": 7, "bert": 10, "gpt2": 10, "a2c": 46, "dqn": 8},
    32: {"vgg16": 10, "vgg19": 10, "resnet18": 7, "shufflenet_v2_x1_0": 8, "bert": 10, "gpt2": 10, "a2c": 46, "dqn": 8},
}
#: Muri's overhead for a model (or GPU count) its table lacks.
DEFAULT_OVERHEAD_S = 10.0


@dataclass(frozen=True)
class MuriOnlineOptions:
    """Muri's flags and the constants of its event loop, with their shipped values."""

    order: Order = "srsf"
    flags: MuriOptions = field(default_factory=MuriOptions)
    autopack: bool = True
    overhead: bool = True
    coincide_s: float = 1e-4
    merge_rel: float = 1e-9


@dataclass
class _State:
    job: Job
    alone_s: float
    remaining: float
    sort_val: float
    running: bool = False
    current_s: float = 0.0
    overhead_s: float = 0.0
    checked: float = 0.0
    executed: float = 0.0
    start: float | None = None
    preemptions: int = 0


@dataclass(frozen=True)
class MuriJob:
    """A job's first start, completion and number of preemptions in a run."""

    job: str
    start: float
    completion: float
    preemptions: int


#: After one event: its time and the groups running, each its sorted job ids.
Regrouping = tuple[float, tuple[tuple[str, ...], ...]]


@dataclass(frozen=True)
class MuriRun:
    """Per-job outcomes, the jobs-waiting step series (time, count) and, per event, the groups
    running after it (Muri regroups at every event)."""

    jobs: tuple[MuriJob, ...]
    queue: tuple[tuple[float, int], ...]
    groups: tuple[Regrouping, ...]

    @property
    def events(self) -> int:
        return len(self.groups)


def _model(job: Job) -> str:
    """The model name of a Muri job id ``{model}-bs{batch}``."""
    return job.model.rsplit("-bs", 1)[0]


def overhead_s(gpus: int, group: Sequence[Job]) -> float:
    """Restart overhead (s) of a job of ``gpus`` GPUs in ``group``."""
    table = OVERHEAD_S.get(gpus, {})
    return sum(table.get(_model(m), DEFAULT_OVERHEAD_S) for m in group)


def _merge(events: list[tuple[float, list[_State]]], time: float, state: _State, rel: float) -> None:
    for t, members in events:
        if math.isclose(t, time, rel_tol=rel):
            members.append(state)
            return
    events.append((time, [state]))


class _Loop:
    def __init__(self, instance: PackingInstance, options: MuriOnlineOptions) -> None:
        if len(instance.gpu_types) != 1:
            raise PackgapError(
                f"muri-s / muri-l run on one GPU type (Muri's clusters are homogeneous); "
                f"{instance.name} has {len(instance.gpu_types)}"
            )
        check_flags(options.flags)
        self.options = options
        self.order = {j.id: i for i, j in enumerate(instance.jobs)}
        self.capacity = instance.gpu_types[0].count
        self.arrivals: list[tuple[float, list[_State]]] = []
        for job in sorted(instance.jobs, key=lambda j: j.arrival):
            alone = group_ms([job], 0) / 1000.0
            state = _State(job, alone, float(job.iterations), 0.0)
            _merge(self.arrivals, job.arrival, state, options.merge_rel)
        self.arrivals.sort(key=lambda e: e[0])
        self.ends: list[tuple[float, list[_State]]] = []
        self.jobs: list[_State] = []
        self.done: list[MuriJob] = []
        self.queue: list[tuple[float, int]] = [(0.0, 0)]

    def next_event(self) -> tuple[float, list[_State], list[_State]]:
        start = self.arrivals[0][0] if self.arrivals else math.inf
        end = self.ends[0][0] if self.ends else math.inf
        if math.isfinite(end) and math.isclose(end, start, abs_tol=self.options.coincide_s):
            return start, self.ends[0][1], self.arrivals.pop(0)[1]
        if end < start:
            return end, self.ends[0][1], []
        return start, [], self.arrivals.pop(0)[1]

    def advance(self, now: float) -> None:
        las = self.options.order == "las"
        for s in self.jobs:
            if s.running:
                progress = max(now - s.checked - s.overhead_s, 0.0)
                s.remaining -= progress / s.current_s
                s.executed += now - s.checked
                gpus = s.job.gpus
                s.sort_val = s.executed * gpus if las else s.remaining * s.alone_s * gpus
            s.checked = now

    def candidates(self) -> dict[int, list[Node]]:
        by_size: dict[int, list[_State]] = {}
        for s in self.jobs:
            by_size.setdefault(s.job.gpus, []).append(s)
        chosen = dict.fromkeys(by_size, 0)
        taken: set[int] = set()
        free = self.capacity
        for s in self.jobs:
            if id(s) in taken or s.job.gpus > free:
                continue
            free -= s.job.gpus
            size = s.job.gpus
            upto = min(chosen[size] + self.options.flags.packing_num, len(by_size[size]))
            taken.update(id(x) for x in by_size[size][chosen[size] : upto])
            chosen[size] = upto
        return {size: [(x.job,) for x in by_size[size][: chosen[size]]] for size in by_size}

    def groups(self, nodes: dict[int, list[Node]], keys: dict[str, float]) -> list[Node]:
        flags = self.options.flags
        ranked: list[tuple[float, Node]] = []
        for row in blossom_rounds(nodes, self.capacity, 1, flags).values():
            for node in row:
                parts = autopacked(node, 1, flags.multi_resource) if self.options.autopack else [node]
                ranked += [(min(keys[j.id] for j in part), part) for part in parts]
        ranked.sort(key=lambda r: r[0])
        admitted, free = [], self.capacity
        for _, node in ranked:
            if node[0].gpus <= free:
                free -= node[0].gpus
                admitted.append(node)
        return admitted

    def place(self, now: float, admitted: list[Node]) -> None:
        group_of = {j.id: node for node in admitted for j in node}
        self.jobs.sort(key=lambda s: s.job.gpus, reverse=True)
        for s in self.jobs:
            node = group_of.get(s.job.id)
            if node is None:
                if s.running:
                    s.running = False
                    s.preemptions += 1
                continue
            s.current_s = group_ms(node, 0, self.options.flags.multi_resource) / 1000.0
            s.overhead_s = overhead_s(s.job.gpus, node) if self.options.overhead else 0.0
            if s.start is None:
                s.start = now
            s.running = True

    def predict(self, now: float) -> None:
        self.ends = []
        for s in self.jobs:
            if s.running:
                _merge(self.ends, now + s.remaining * s.current_s, s, self.options.merge_rel)
        self.ends.sort(key=lambda e: e[0])

    def run(self) -> MuriRun:
        record: list[Regrouping] = []
        while self.arrivals or self.jobs:
            if not self.arrivals and not self.ends:
                raise PackgapError("muri-s / muri-l: a job is wider than the cluster")
            now, ending, arriving = self.next_event()
            for s in ending:
                self.jobs.remove(s)
                self.done.append(MuriJob(s.job.id, s.start if s.start is not None else now, now, s.preemptions))
            for s in arriving:
                s.checked = s.job.arrival
                duration = s.job.duration if s.job.duration is not None else s.job.iterations * s.alone_s
                s.sort_val = 0.0 if self.options.order == "las" else duration * s.job.gpus
                self.jobs.append(s)
            self.advance(now)
            self.jobs.sort(key=lambda s: s.sort_val)
            keys = {s.job.id: s.sort_val for s in self.jobs}
            admitted = self.groups(self.candidates(), keys)
            self.place(now, admitted)
            record.append((now, tuple(sorted(tuple(sorted(j.id for j in node)) for node in admitted))))
            self.predict(now)
            waiting = sum(1 for s in self.jobs if not s.running)
            if self.queue[-1][0] == now:
                self.queue.pop()
            self.queue.append((now, waiting))
        return MuriRun(tuple(sorted(self.done, key=lambda o: self.order[o.job])), tuple(self.queue), tuple(record))


def simulate_muri(instance: PackingInstance, options: MuriOnlineOptions = MuriOnlineOptions()) -> MuriRun:
    """One run of Muri-S (``order="srsf"``) or Muri-L (``"las"``) on ``instance``."""
    return _Loop(instance, options).run()
