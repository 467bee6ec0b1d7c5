"""The online driver every sharing policy runs in: events, GPU bookkeeping, the schedule.

A policy is called at every event of :mod:`packgap.engine` (arrivals, finishes and the
wake-ups it asks for) with a :class:`View` of the cluster: which jobs hold which GPUs at
which sub-batch, the waiting queue, and every job's progress. It starts jobs with
:meth:`View.start` (and, if preemptive, stops them with :meth:`View.stop`); the driver
turns that into rates with the progress model of :mod:`packgap.sharing.progress` and
writes the :class:`~packgap.sharing.SharingSolution`, which the family's evaluator
replays independently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from packgap import engine
from packgap.sharing import JobSchedule, Perf, Segment, SharingInstance, SharingSolution
from packgap.sharing.instance import Job
from packgap.sharing.perf import steps
from packgap.sharing.progress import co_located_rates


@dataclass
class Placed:
    job: Job
    gpus: tuple[int, ...]
    batch: int


@dataclass
class View:
    """The cluster as a policy sees it; ``start`` and ``stop`` are its only actions."""

    instance: SharingInstance
    perf: Perf
    now: float = 0.0
    holders: list[list[str]] = field(default_factory=list)
    running: dict[str, Placed] = field(default_factory=dict)
    waiting: list[Job] = field(default_factory=list)
    progress: Mapping[str, engine.Progress] = field(default_factory=dict)
    log: dict[str, list[Segment]] = field(default_factory=dict)
    batches: dict[str, int] = field(default_factory=dict)
    co_runners: dict[str, str | None] = field(default_factory=dict)

    def free_gpus(self) -> list[int]:
        return [g for g, h in enumerate(self.holders) if not h]

    def shareable(self) -> int:
        """GPUs holding no job or one job: the most a waiting job could be given now."""
        return sum(1 for h in self.holders if len(h) < 2)

    def alone_gpus(self) -> dict[str, list[int]]:
        """GPUs that hold exactly one job, by that job (Algorithm 1's G_OJ), in GPU order."""
        out: dict[str, list[int]] = {}
        for g, h in enumerate(self.holders):
            if len(h) == 1:
                out.setdefault(h[0], []).append(g)
        return out

    def remaining_solo(self, job_id: str) -> float:
        """P_R: seconds the running job needs alone to finish at its current sub-batch."""
        p = self.progress[job_id]
        return p.remaining * self.perf.t_iter(job_id, self.running[job_id].batch)

    def used_memory(self, gpu: int) -> float:
        return sum(self.perf.memory(j, self.running[j].batch) for j in self.holders[gpu])

    def start(self, job: Job, gpus: Sequence[int], batch: int) -> None:
        """Start (or resume) ``job`` on ``gpus`` at sub-batch ``batch``, now."""
        co = next((h for g in gpus for h in self.holders[g]), None)
        for g in gpus:
            self.holders[g].append(job.id)
        self.running[job.id] = Placed(job, tuple(gpus), batch)
        self.waiting.remove(job)
        if job.id not in self.log:
            self.co_runners[job.id] = co
            self.batches[job.id] = batch
        self.log.setdefault(job.id, []).append(Segment(self.now, tuple(gpus)))

    def stop(self, job_id: str) -> None:
        """Preempt a running job: it keeps its progress and goes back to the queue."""
        placed = self.release(job_id)
        segs = self.log[job_id]
        segs[-1] = Segment(segs[-1].start, segs[-1].gpus, self.now)
        self.waiting.append(placed.job)

    def release(self, job_id: str) -> Placed:
        placed = self.running.pop(job_id)
        for g in placed.gpus:
            self.holders[g].remove(job_id)
        return placed


#: ``policy(view) -> wake-up time or None``; it calls ``view.start`` / ``view.stop``.
OnlinePolicy = Callable[[View], "float | None"]


def run_online(instance: SharingInstance, policy: OnlinePolicy, *, preemptive: bool = False) -> SharingSolution:
    """Simulate ``policy`` over the whole workload and return its schedule."""
    view = View(instance, Perf(instance), holders=[[] for _ in range(instance.cluster.gpus)])
    jobs = {j.id: j for j in instance.jobs}

    def step(state: engine.State) -> engine.Decision:
        view.now, view.progress = state.now, state.progress
        for jid in state.finished:
            view.release(jid)
        view.waiting.extend(jobs[jid] for jid in state.arrived)
        before = {jid: p.gpus for jid, p in view.running.items()}
        wake = policy(view)
        charge = {}
        overhead = instance.cluster.preemption_overhead_s
        for jid, placed in view.running.items():
            resumed = jid not in before and len(view.log[jid]) > 1
            if resumed and overhead > 0:
                charge[jid] = overhead / view.perf.t_iter(jid, placed.batch)
        running = {jid: (p.gpus, p.batch) for jid, p in view.running.items()}
        return engine.Decision(co_located_rates(view.perf, running), charge, wake)

    run = engine.simulate([engine.EngineJob(j.id, j.arrival, float(j.iterations)) for j in instance.jobs], step)
    out = []
    for j in instance.jobs:
        b, finish = view.batches[j.id], run.records[j.id].finish
        out.append(JobSchedule(j.id, b, steps(j.batch, b), tuple(view.log[j.id]), finish, view.co_runners[j.id]))
    return SharingSolution(tuple(out), preemptive)


def consolidated(free: Sequence[int], count: int, gpus_per_node: int) -> list[int]:
    """``count`` of the ``free`` GPUs on as few nodes as possible (Algorithm 1, lines 6-7).

    One node if any can hold the job: the one with the fewest free GPUs that suffices (best
    fit keeps larger blocks for larger jobs); otherwise the nodes with most free GPUs first.
    Ties go to the lower node id.
    """
    by_node: dict[int, list[int]] = {}
    for g in free:
        by_node.setdefault(g // gpus_per_node, []).append(g)
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
