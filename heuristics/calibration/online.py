"""GIMBAL as a wrapper over base schedulers, end to end (sections 7.2 and 7.3), on packgap.engine.

Base schedulers (non-preemptive, each job placed once on free GPUs on the fewest nodes, or
packed onto a running job by the rules of :mod:`packgap.heuristics.calibration.cluster`); the queue is
tried in the scheduler's order at every arrival and finish, skipping jobs that do not fit:

* ``lucid`` (JCT, section 7.2): shortest solo duration first; packs a pair only when both
  free-competition pair speeds reach ``conservative`` (Lucid's sharing score, here the
  measured interference); local objective eq. 1;
* ``gandiva`` (deadline): earliest deadline first (Gandiva's FCFS "extended to support the
  deadline-aware feature"); local objective eq. 3 (as lateness);
* ``gavel`` (makespan): longest solo duration first; local objective eq. 5.

Variants (the ablation of Fig. 12, and the oracle beside it):

* ``baseline``: only balanced co-location, conservative packing, free competition;
* ``unequal``: unequal packing allowed, otherwise as the baseline;
* ``liss``: as ``unequal`` with LISS on every job;
* ``aggressive``: aggressive packing (unequal, pair speeds down to ``aggressive``), free
  competition, no calibration: the packing policy of ``gimbal`` alone;
* ``gimbal``: aggressive packing, GIMBAL Algorithm 1 on every set whose members change,
  charged its search (section 7.4 cost model);
* ``exact``: as ``gimbal`` but every set gets the exact calibration optimum on the grid,
  with no search cost: how much of the possible gain the greedy search reaches.

Fig. 8 compares ``gimbal`` with ``baseline``, which changes two things at once: the packing
policy (conservative, balanced pairs -> aggressive, any pair) and the calibration. Against
``aggressive`` it shows calibration's own gain. Even ``exact`` can lose end to end: it
optimises each set's local objective at the moment the set forms, blind to later arrivals
and finishes (a job squeezed to speed up its partner holds its GPUs longer, and the queue
behind it waits), and the packing it rides on lets slow pairs run where a job could have
waited for free GPUs.

Every set's calibration is validated (section 5.1 topology included) before it runs. A
search is charged as extra steps: what a job would have trained at its final configuration
during the search minus what it did train (:func:`~packgap.heuristics.calibration.search_cost.completions_with_search`),
never negative (the engine charges work, it cannot give it back).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from packgap.calibration import FAMILY, CalibrationInstance, Job
from packgap.calibration.workload import Workload, WorkloadJob
from packgap.engine import Decision, EngineJob, Run, State, simulate
from packgap.heuristics.calibration.cluster import Cluster
from packgap.heuristics.calibration.gimbal import coordinate
from packgap.heuristics.calibration.search_cost import CostModel, completions_with_search, search_time
from packgap.heuristics.calibration.state import Calibration, free_competition, liss_only, with_liss
from packgap.heuristics.calibration.variants import AGGRESSIVE, BASES


def _exact(instance: CalibrationInstance) -> Calibration:
    from packgap.models.calibration.frontier import optimise
    from packgap.models.calibration.grid import grid_options, shares
    from packgap.models.calibration.layout import layout

    lay = layout(instance)
    return with_liss(
        instance, shares(lay, instance.granularity, optimise(lay, grid_options(lay, instance.granularity)).choice)
    )


def solo_step_s(workload: Workload, job: WorkloadJob) -> float:
    """Seconds of one step of ``job`` alone on its GPUs: c + b / v at its per-worker batch."""
    profile = workload.throughput.profile(job.model)
    return profile.fixed_cost + job.batch / job.world_size / profile.speed


@dataclass
class Policy:
    """The engine policy of one (base scheduler, variant) run; it keeps the cluster and the rates."""

    workload: Workload
    base: str
    variant: str
    conservative: float = 0.85
    aggressive: float = 0.0
    cost: CostModel = field(default_factory=CostModel)
    cluster: Cluster = field(init=False)
    queue: list[str] = field(default_factory=list)
    rates: dict[str, float] = field(default_factory=dict)
    calibrations: int = 0
    search_s: float = 0.0
    unequal_sets: int = 0
    #: Sets in which some job's workers run at different speeds under free competition: the
    #: only sets whose step time LISS changes (elsewhere every worker of a job is equally fast).
    straggler_sets: int = 0

    def __post_init__(self) -> None:
        self.cluster = Cluster(self.workload.nodes, self.workload.gpus_per_node)
        self.jobs = {j.id: j for j in self.workload.jobs}
        self.solo = {j.id: j.steps * solo_step_s(self.workload, j) for j in self.workload.jobs}

    def order(self, job: str) -> tuple[float, str]:
        if self.base == "lucid":
            return self.solo[job], job
        if self.base == "gandiva":
            return self.jobs[job].deadline, job
        return -self.solo[job], job

    def packable(self, job: str, host: str) -> bool:
        tm = self.workload.throughput
        a, b = self.jobs[job].model, self.jobs[host].model
        floor = self.aggressive if self.variant in AGGRESSIVE else self.conservative
        return min(tm.pair_speed(a, b), tm.pair_speed(b, a)) >= floor

    def try_place(self, job: str) -> bool:
        """Place ``job`` on free GPUs, else pack it onto an allowed host; False if it waits."""
        size = self.jobs[job].world_size
        gpus = self.cluster.free_placement(size)
        if gpus is None:
            hosts = [(h, g) for h, g in self.cluster.hosts(size, self.variant != "baseline") if self.packable(job, h)]
            if not hosts:
                return False
            tm = self.workload.throughput
            model = self.jobs[job].model
            gpus = max(hosts, key=lambda hg: tm.pair_speed(model, self.jobs[hg[0]].model))[1]
        self.cluster.place(job, gpus)
        return True

    def calibrate(self, members: set[str], state: State) -> dict[str, float]:
        """Rates (steps/s) of a set's jobs, and the steps its search cost each (charged)."""
        big = self.cluster.j_max(members)
        order = [big, *sorted(members - {big})]
        jobs = tuple(
            Job(
                jid,
                self.jobs[jid].model,
                self.jobs[jid].batch,
                state.progress[jid].remaining,
                self.jobs[jid].deadline,
                self.cluster.gpus[jid],
            )
            for jid in order
        )
        w = self.workload
        instance = CalibrationInstance(
            f"set@{state.now:.0f}",
            BASES[self.base],
            state.now,
            w.granularity,
            w.nodes,
            w.gpus_per_node,
            w.throughput,
            jobs,
        )
        if len({len(j.gpus) for j in jobs}) > 1:
            self.unequal_sets += 1
        if any(max(v) - min(v) > 1e-9 for v in free_competition(instance).speeds(instance)):
            self.straggler_sets += 1
        self.calibrations += 1
        charge: dict[str, float] = {}
        if self.variant in ("baseline", "unequal", "aggressive"):
            cal = free_competition(instance)
        elif self.variant == "liss":
            cal = liss_only(instance)
        elif self.variant == "exact":
            cal = _exact(instance)
        else:
            search = coordinate(instance)
            cal = search.best
            self.search_s += search_time(search.steps, self.cost)
            done = completions_with_search(instance, search.steps, cal, self.cost)
            for j, (t, job) in enumerate(zip(cal.times(instance), jobs, strict=True)):
                charge[job.id] = max(0.0, (done[j] - t) * job.remaining_steps / t)
        FAMILY.validate(instance, cal.solution(instance))
        times = cal.times(instance)
        for t, job in zip(times, jobs, strict=True):
            self.rates[job.id] = job.remaining_steps / t
        return charge

    def __call__(self, state: State) -> Decision:
        touched: set[str] = set()
        for jid in state.finished:
            self.rates.pop(jid, None)
            gpus = self.cluster.gpus[jid]
            self.cluster.remove(jid)
            touched |= {o for g in gpus for o in self.cluster.holders[g]}
        touched -= set(state.finished)
        self.queue += state.arrived
        for jid in sorted(self.queue, key=self.order):
            if self.try_place(jid):
                self.queue.remove(jid)
                touched.add(jid)
        charge: dict[str, float] = {}
        while touched:
            members = self.cluster.set_of(touched.pop())
            touched -= members
            charge |= self.calibrate(members, state)
        return Decision(dict(self.rates), {k: v for k, v in charge.items() if v > 0})


@dataclass(frozen=True)
class Outcome:
    base: str
    variant: str
    run: Run
    metrics: dict[str, float]
    workload: Workload

    def met(self) -> dict[str, bool]:
        """Whether each job finished by its deadline (Gandiva's "completed" jobs, section 7.2)."""
        return met_deadlines(self.workload, self.run)

    def throughput(self, bin_s: float) -> list[float]:
        """Cluster throughput per ``bin_s`` seconds from time 0 to the makespan, averaged over each
        bin, in solo-speed GPUs: the sum over running jobs of world size x rate x solo step time
        (32 on 32 GPUs each running its job alone; packing can exceed the GPU count). Steps that
        repay a search's charge count as work done: the GPUs ran them. The last bin ends at the
        makespan and is averaged over what it covers (a full-width average would read as a drop)."""
        end = self.run.makespan
        work = [0.0] * max(1, math.ceil(end / bin_s))
        for job in self.workload.jobs:
            scale = job.world_size * solo_step_s(self.workload, job)
            for seg in self.run.records[job.id].segments:
                first = min(int(seg.start // bin_s), len(work) - 1)
                for k in range(first, len(work)):
                    overlap = min(seg.end, (k + 1) * bin_s) - max(seg.start, k * bin_s)
                    if overlap <= 0:
                        break
                    work[k] += seg.rate * scale * overlap
        return [w / (min(end, (k + 1) * bin_s) - k * bin_s) for k, w in enumerate(work)]


def met_deadlines(workload: Workload, run: Run) -> dict[str, bool]:
    return {j.id: run.records[j.id].finish <= j.deadline + 1e-6 for j in workload.jobs}


def metrics(workload: Workload, policy: Policy, run: Run) -> dict[str, float]:
    records = [run.records[j.id] for j in workload.jobs]
    met = sum(met_deadlines(workload, run).values())
    n = max(1, len(records))
    last = max(workload.jobs, key=lambda j: (run.records[j.id].finish, j.id))
    return {
        "jobs": float(len(records)),
        "mean_jct_s": sum(r.completion for r in records) / n,
        "mean_queuing_s": sum(r.queuing for r in records) / n,
        "makespan_s": run.makespan,
        "deadlines_met": float(met),
        "deadline_ratio": met / n,
        "calibrations": float(policy.calibrations),
        "unequal_sets": float(policy.unequal_sets),
        "straggler_sets": float(policy.straggler_sets),
        # The job that sets the makespan, and the makespan of solo work spread over every GPU
        # from time 0 (what the cluster's load alone implies, packing gains aside).
        "last_job_gpus": float(last.world_size),
        "last_job_queuing_s": run.records[last.id].queuing,
        "solo_load_s": sum(policy.solo[j.id] * j.world_size for j in workload.jobs) / workload.gpu_count,
        "search_time_s": policy.search_s,
    }


def run_workload(
    workload: Workload,
    base: str,
    variant: str,
    conservative: float = 0.85,
    aggressive: float = 0.0,
    on_event: Callable[[], None] = lambda: None,
) -> Outcome:
    """One end-to-end run of ``base`` with ``variant`` over the whole workload."""
    policy = Policy(workload, base, variant, conservative, aggressive)

    def step(state: State) -> Decision:
        on_event()
        return policy(state)

    run = simulate([EngineJob(j.id, j.arrival, j.steps) for j in workload.jobs], step)
    return Outcome(base, variant, run, metrics(workload, policy, run), workload)


def run_all(
    workload: Workload,
    bases: Sequence[str],
    variants: Sequence[str],
    conservative: float = 0.85,
    aggressive: float = 0.0,
    on_event: Callable[[], None] = lambda: None,
) -> list[Outcome]:
    """Every (base, variant) run over the workload, in that order."""
    return [run_workload(workload, b, v, conservative, aggressive, on_event) for b in bases for v in variants]
