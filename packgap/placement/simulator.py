"""Round-based cluster simulator of PAL's evaluation (section IV; Blox, section IV-A).

Time runs in rounds of ``round_length`` seconds (300 s by default, Blox's epoch; the PAL
artifact uses 360 s). At every round boundary t, in this order:

1. every job that ran in the round just ended is credited ``round_length / (P x L x T)``
   iterations, where T is its model's iteration time, P the largest PM-score of its GPUs
   for its class and L its locality penalty (``L_across`` if its GPUs span nodes, else 1;
   eq. 1); P and L are fixed when the job is placed;
2. a job whose credited iterations reach its work finishes at t (completion is noticed at
   the end of the round in which its work runs out) and frees its GPUs;
3. jobs submitted by t join the queue;
4. the scheduler orders the queue (running and waiting jobs); the jobs served this round are
   the longest prefix of that order whose summed demand fits the cluster (strict head-of-
   line blocking, as in the PAL artifact: blox-sim-inputs PROVENANCE.md, section 4);
5. the placement policy gets a round instance (:class:`PlacementInstance`) with the served
   jobs that need GPUs: with a sticky policy, served jobs that are running keep their GPUs
   (these are unavailable) and running jobs that are no longer served are preempted; a
   non-sticky policy re-places every served job on an empty cluster. Every placement is
   validated. Migration costs nothing (as in the artifact). A policy that ``repeats`` (its
   placement depends on the round's jobs - id, demand, class, model, in order - and unavailable
   GPUs alone, not on the seed or remaining work) is not asked again for a round equal to the one
   before: its placement is taken over, which is what it would return (most rounds of a long
   trace repeat the last: 31,216 rounds of 20,000 jobs on 27,648 GPUs under FIFO).

Metrics: JCT = finish - submit; wait = JCT - rounds run x round length (time in the system
not running); makespan = last finish; GPU utilisation = GPUs in use / GPUs, per round.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from packgap.errors import PackgapError
from packgap.placement.evaluate import job_slowdown, validate
from packgap.placement.instance import Job, PlacementInstance
from packgap.placement.solution import PlacementSolution


@dataclass(frozen=True)
class SimJob:
    """A trace job: ``work`` iterations of ``iter_time`` seconds on a median GPU.
    Untracked jobs (``tracked=False``) run but are left out of the metrics and of the
    stopping rule (the PAL artifact's extra jobs)."""

    id: str
    gpus: int
    submit_time: float
    work: float
    model: str
    job_class: str
    iter_time: float
    tracked: bool = True


@dataclass(frozen=True)
class Cluster:
    """Nodes x GPUs per node with per-class PM-scores and locality penalties (the round
    instance's cluster fields)."""

    nodes: int
    gpus_per_node: int
    classes: tuple[str, ...]
    pm_scores: Mapping[str, tuple[float, ...]]
    locality_penalty: float
    model_penalties: Mapping[str, float] = field(default_factory=dict)

    @property
    def num_gpus(self) -> int:
        return self.nodes * self.gpus_per_node


@dataclass
class JobState:
    """A job's progress as the scheduler sees it."""

    job: SimJob
    done: float = 0.0
    service: float = 0.0
    gpus: tuple[int, ...] = ()
    slowdown: float = 1.0
    rounds_run: int = 0
    finish: float | None = None

    @property
    def remaining_time(self) -> float:
        """Seconds of work left on median GPUs (SRTF's key)."""
        return max(0.0, self.job.work - self.done) * self.job.iter_time


#: Orders the queue (running and waiting jobs), highest priority first.
Scheduler = Callable[[Sequence[JobState]], list[JobState]]
#: A placement policy: round instance and seed -> placement.
Place = Callable[[PlacementInstance, int], PlacementSolution]
#: Called with every round instance and the placement the policy chose for it.
Observer = Callable[[PlacementInstance, PlacementSolution], None]
#: What a repeating policy's placement depends on: (id, demand, class, model) per job, unavailable GPUs.
RoundKey = tuple[tuple[tuple[str, int, str, str], ...], frozenset[int]]


@dataclass(frozen=True)
class SimResult:
    finish: dict[str, float]
    jct: dict[str, float]
    wait: dict[str, float]
    utilisation: tuple[float, ...]
    round_length: float

    @property
    def mean_jct(self) -> float:
        return sum(self.jct.values()) / len(self.jct)

    @property
    def p99_jct(self) -> float:
        """99th percentile of JCT, linear interpolation (numpy's default)."""
        values = sorted(self.jct.values())
        pos = 0.99 * (len(values) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(values) - 1)
        return values[lo] + (values[hi] - values[lo]) * (pos - lo)

    @property
    def makespan(self) -> float:
        return max(self.finish.values())

    @property
    def mean_wait(self) -> float:
        return sum(self.wait.values()) / len(self.wait)


def simulate(
    cluster: Cluster,
    jobs: Sequence[SimJob],
    scheduler: Scheduler,
    place: Place,
    *,
    sticky: bool,
    round_length: float = 300.0,
    seed: int = 0,
    max_rounds: int = 1_000_000,
    observe: Observer | None = None,
    repeats: bool = False,
) -> SimResult:
    """Run the trace to the end of its last tracked job; ``seed + round index`` seeds each
    round's placement (random policies draw afresh every round); ``observe`` sees every
    round instance with a job to place and its placement (per-round gap reporting);
    ``repeats``: the policy places a round equal to the last one as it did (module docstring)."""
    if not any(j.tracked for j in jobs):
        raise PackgapError("the trace has no tracked job to simulate")
    too_big = [j.id for j in jobs if j.gpus > cluster.num_gpus]
    if too_big:
        raise PackgapError(f"job(s) {', '.join(too_big[:5])} need more GPUs than the cluster has")
    pending = sorted(jobs, key=lambda j: j.submit_time)
    states: list[JobState] = []
    finished: list[JobState] = []
    running: dict[str, JobState] = {}
    utilisation: list[float] = []
    tracked_left = sum(1 for j in jobs if j.tracked)
    last: dict[RoundKey, PlacementSolution] = {}
    for k in range(max_rounds):
        now = k * round_length
        for st in running.values():
            st.done += round_length / (st.slowdown * st.job.iter_time)
            st.service += round_length * st.job.gpus
            st.rounds_run += 1
        for st in [s for s in running.values() if s.done >= s.job.work]:
            st.finish, st.gpus = now, ()
            del running[st.job.id]
            finished.append(st)
            tracked_left -= st.job.tracked
        states = [s for s in states if s.finish is None]
        if tracked_left == 0:
            break
        while pending and pending[0].submit_time <= now:
            states.append(JobState(pending.pop(0)))
        served = _served(scheduler(states), cluster.num_gpus)
        running = _place_round(cluster, served, running, place, sticky, seed + k, k, observe, last if repeats else None)
        utilisation.append(sum(s.job.gpus for s in running.values()) / cluster.num_gpus)
    else:
        raise PackgapError(f"simulation did not finish within {max_rounds} rounds")
    done = [s for s in finished if s.job.tracked]
    finish = {s.job.id: float(s.finish or 0.0) for s in done}
    jct = {s.job.id: finish[s.job.id] - s.job.submit_time for s in done}
    return SimResult(
        finish=finish,
        jct=jct,
        wait={s.job.id: jct[s.job.id] - s.rounds_run * round_length for s in done},
        utilisation=tuple(utilisation),
        round_length=round_length,
    )


def _served(order: list[JobState], capacity: int) -> list[JobState]:
    total = 0
    for i, st in enumerate(order):
        total += st.job.gpus
        if total > capacity:
            return order[:i]
    return order


def _place_round(
    cluster: Cluster,
    served: list[JobState],
    running: dict[str, JobState],
    place: Place,
    sticky: bool,
    seed: int,
    k: int,
    observe: Observer | None,
    last: dict[RoundKey, PlacementSolution] | None,
) -> dict[str, JobState]:
    """Place the round; ``last`` (for a repeating policy) holds the previous round's placement."""
    served_ids = {s.job.id for s in served}
    kept = {i: s for i, s in running.items() if sticky and i in served_ids}
    for i, st in running.items():
        if i not in kept:
            st.gpus = ()
    to_place = [s for s in served if s.job.id not in kept]
    instance = PlacementInstance(
        name=f"round-{k}",
        nodes=cluster.nodes,
        gpus_per_node=cluster.gpus_per_node,
        classes=cluster.classes,
        pm_scores=cluster.pm_scores,
        locality_penalty=cluster.locality_penalty,
        jobs=tuple(Job(s.job.id, s.job.gpus, s.job.job_class, s.job.model, s.remaining_time) for s in to_place),
        unavailable=frozenset(g for s in kept.values() for g in s.gpus),
        model_penalties=cluster.model_penalties,
    )
    key: RoundKey = (tuple((j.id, j.gpus, j.job_class, j.model) for j in instance.jobs), instance.unavailable)
    if last is not None and key in last:
        solution = last[key]
    else:
        solution = place(instance, seed)
        validate(instance, solution)
        if last is not None:
            last.clear()
            last[key] = solution
    if observe is not None and instance.jobs:
        observe(instance, solution)
    for st, job in zip(to_place, instance.jobs, strict=True):
        st.gpus = solution.allocations[job.id]
        st.slowdown = job_slowdown(instance, job, st.gpus).slowdown
    return {**kept, **{s.job.id: s for s in to_place}}
