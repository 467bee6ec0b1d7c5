"""The rate LP bound (:mod:`packgap.models.sharing.rate_lp`) solved by HiGHS (or any back-end of
:mod:`packgap.solvers.catalogue`) and certified, and with ``runs`` the class bound of
:mod:`packgap.models.sharing.run_lp` (non-preemptive schedules only).

The horizon is the makespan of the best non-preemptive heuristic schedule and each C_j is
capped by that schedule's sum of completion times (every schedule at least as good stays
feasible). The LP's value is the weak-duality bound recomputed from HiGHS's row prices, never
the solver's objective; the MILP's (``milp``: the completion-slot binaries) is HiGHS's dual
bound when the search ends (proven optimum, node or time limit), stepped down by
:data:`MIP_SLACK`. Either is never below the cheap bound (:mod:`packgap.models.sharing.bound`):
the larger of two valid bounds is valid. The class bound is never below exact-bb's root node
bound either (:func:`packgap.models.sharing.node_bound.root_bound`, up to :data:`ROOT_JOBS` jobs),
which holds for the same class, with its blocks of jobs up to
:data:`packgap.models.sharing.subset_bound.MAX_JOBS` jobs (:mod:`packgap.models.sharing.subset_bound`,
within :data:`~packgap.models.sharing.subset_bound.SHARE` of the time limit). The blocks' optima
are rows of the class bound's LP too; beyond that job count, the blocks of jobs that arrive
within :data:`~packgap.models.sharing.subset_bound.WIDTH` of each other
(:func:`packgap.models.sharing.subset_bound.windowed`, within the same share).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from packgap.analysis.sharing.runs import best_heuristic
from packgap.deadline import within
from packgap.errors import TimeLimitReached
from packgap.models.sharing import rate_lp, subset_bound
from packgap.models.sharing.bound import completion_lower_bound
from packgap.models.sharing.branch_bound import subset_table, window_sums
from packgap.models.sharing.node_bound import root_bound
from packgap.sharing import FAMILY, SharingInstance, SharingSolution
from packgap.solvers.matrix import Columns, open_model
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions

#: Slots of the default grid: 60 up to :data:`MANY` jobs, 24 beyond (measured on the loaded
#: 2-core machine, 240 jobs / 64 GPUs: 18 s at 24 slots, 114 s at 60, the same bound).
SLOTS, FEW_SLOTS, MANY = 60, 24, 50
#: The MILP's grid: 30 slots (README 6-job seed 1: proven in 4 s at 30 slots, 1,396 s; at 60
#: stopped at 30 s with 1,327 s, proven in 18 s CPU with 1,406 s), and its node limit, which
#: stops every run at the same point (deterministic) before the time limit does (the README's
#: 6-job instances are proven within 396 nodes, 15 s CPU; 1,000 nodes took 66 s on an 8-job one).
MILP_SLOTS, MILP_NODES = 30, 500
#: The most jobs for which the class bound takes exact-bb's root node bound too: it grows with
#: the square of the job count (measured: 0.04 s at 240 jobs, 0.46 s at 960, 1.95 s at 1,920) and
#: reads no deadline.
ROOT_JOBS = 1000
#: Relative step down of the solver's MIP dual bound: its LPs are solved to feasibility
#: tolerances (HiGHS 1e-7, SCIP 1e-6), not exactly.
MIP_SLACK = 1e-6


def default_slots(jobs: int, milp: bool = False) -> int:
    if milp:
        return MILP_SLOTS if jobs <= MANY else FEW_SLOTS
    return SLOTS if jobs <= MANY else FEW_SLOTS


@dataclass(frozen=True)
class LpBound:
    """Bounds on the sum of completion times: the certified LP value, the combinatorial bound
    beneath it (``cheap_sum``: the cheap bound, and for the class bound the larger of it and
    exact-bb's root node bound) and the final bound, the larger of the two."""

    lp_sum: float | None
    cheap_sum: float
    status: str

    @property
    def completion_sum(self) -> float:
        return self.cheap_sum if self.lp_sum is None else max(self.cheap_sum, self.lp_sum)


def solve(
    instance: SharingInstance,
    slots: int | None = None,
    time_limit: float | None = 60.0,
    milp: bool = False,
    iteration_limit: int | None = None,
    solver: str = "highs",
    runs: bool = False,
    incumbent: SharingSolution | None = None,
    blocks: int = subset_bound.SIZE,
) -> LpBound:
    """The certified bound on the sum of completion times (``slots`` None: :func:`default_slots`;
    ``milp``: with the completion-slot binaries, ``lp_sum`` then holds the MILP's bound;
    ``iteration_limit``: the solver's, a work limit that stops at the same point on every run;
    ``solver``: the LP / MILP back-end, :mod:`packgap.solvers.catalogue`; ``runs``: with the run
    intervals, a bound over non-preemptive schedules only, with the time beside each partner
    model up to :data:`MANY` jobs: beyond, that LP did not finish in 600 s on a 240-job / 64-GPU
    workload on the loaded machine; ``incumbent``: the schedule that sets the horizon,
    :func:`best_heuristic`'s when None; ``blocks``: with ``runs``, the largest block of the
    subset bound, below 2 none: the table up to its job cap, windowed blocks beyond)."""
    # The bounds and the LP are built within the time limit too (whole traces take minutes):
    # past it, the cheap bound.
    start = time.perf_counter()
    cheap = completion_lower_bound(instance)
    subsets = None
    share = math.inf if time_limit is None else start + subset_bound.SHARE * time_limit
    n = len(instance.jobs)
    if runs and 0 < n <= ROOT_JOBS:
        if blocks >= 2 and 2 < n <= subset_bound.MAX_JOBS:
            subsets = subset_table(instance, share, size=blocks)
        cheap = max(cheap, root_bound(instance, subsets))
    if not instance.jobs or instance.cluster.max_jobs_per_gpu > 2:
        return LpBound(None, cheap, "not built")
    # The windowed blocks feed the LP only (the root bound needs the whole table's partitions).
    sums = [] if subsets is None else subsets.sums()
    if runs and blocks >= 2 and subset_bound.MAX_JOBS < n <= ROOT_JOBS:
        sums = window_sums(instance, share, size=blocks)
    spent = time.perf_counter() - start
    try:
        with within(None if time_limit is None else time_limit - spent, "building the rate LP"):
            incumbent = best_heuristic(instance) if incumbent is None else incumbent
            evaluation = FAMILY.evaluate(instance, incumbent)
            horizon = max(evaluation.metrics["makespan_s"], 1e-6)
            cap = evaluation.objective * len(instance.jobs) + sum(j.arrival for j in instance.jobs)
            grid = slots or default_slots(len(instance.jobs), milp)
            lp = rate_lp.build(
                instance,
                horizon,
                grid,
                cap,
                completion_slots=milp,
                runs=runs,
                meetings=len(instance.jobs) <= MANY,
                block_sums=sums,
            )
    except TimeLimitReached as exc:
        return LpBound(None, cheap, str(exc))
    if time_limit is not None:
        time_limit -= time.perf_counter() - start
        if time_limit < MIN_SOLVE_S:
            return LpBound(None, cheap, "time limit reached before solving the rate LP")
    options = SolveOptions(
        time_limit=time_limit, node_limit=MILP_NODES if milp else None, iteration_limit=iteration_limit, solver=solver
    )
    model = open_model(lp.row_lower, lp.row_upper, options)
    m = lp.matrix
    model.add_columns(Columns(lp.cost, lp.lower, lp.upper, m.indptr, m.indices, m.data))
    if milp:
        model.set_integer(lp.integer)
    solution = model.solve(time_limit, warm=False)
    if milp:
        found = solution.mip_bound
        return LpBound(None if found is None else found - MIP_SLACK * abs(found), cheap, solution.message)
    if solution.y is None:
        return LpBound(None, cheap, solution.message)
    return LpBound(rate_lp.dual_bound(lp, solution.y), cheap, solution.message)


def average_jct_bound(
    instance: SharingInstance,
    slots: int | None = None,
    time_limit: float | None = 60.0,
    solver: str = "highs",
    incumbent: SharingSolution | None = None,
) -> float:
    """The bound as an average JCT (the family's objective)."""
    if not instance.jobs:
        return 0.0
    total = solve(instance, slots, time_limit, solver=solver, incumbent=incumbent).completion_sum
    return (total - sum(j.arrival for j in instance.jobs)) / len(instance.jobs)


def average_jct_class_bound(
    instance: SharingInstance,
    slots: int | None = None,
    time_limit: float | None = 60.0,
    blocks: int = subset_bound.SIZE,
) -> tuple[float, str]:
    """The class bound (:mod:`packgap.models.sharing.run_lp`, never below the cheap bound nor
    exact-bb's root bound with blocks of at most ``blocks`` jobs) as an average JCT, and HiGHS's
    status; valid for every non-preemptive schedule."""
    if not instance.jobs:
        return 0.0, "no jobs"
    found = solve(instance, slots, time_limit, runs=True, blocks=blocks)
    return (found.completion_sum - sum(j.arrival for j in instance.jobs)) / len(instance.jobs), found.status
