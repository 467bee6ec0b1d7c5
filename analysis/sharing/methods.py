"""Methods of the ``sharing`` family: SJF-BSBF and its baselines simulated over a whole
workload, the exact branch and bound, the time-indexed relaxations and the cheap bound.

Exact results and preemption: the branch and bound proves the optimum over non-preemptive
schedules (the paper's model, eq. 10); Tiresias preempts and may go below it. So every exact
method reports as its bound a value that holds for preemptive schedules too (the cheap
bound of :mod:`packgap.models.sharing.bound`, the rate LP's of :mod:`packgap.models.sharing.rate_lp`
(exact-bb), or the MILP relaxation's), and the non-preemptive
optimum goes into the message (or, when the search stops early, its own bound on it: the
least bound over the nodes it left open) and the status comes from that bound.
"""

from __future__ import annotations

from typing import Any

from packgap.analysis.method import Method, MethodOutput, RunContext, signature_defaults
from packgap.errors import PackgapError
from packgap.heuristics.sharing.exclusive import fifo, sjf
from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
from packgap.heuristics.sharing.tiresias import tiresias
from packgap.result import Status
from packgap.sharing import FAMILY, SharingInstance, SharingSolution

NON_PREEMPTIVE = {"fifo": fifo, "sjf": sjf, "sjf-ffs": sjf_ffs, "sjf-bsbf": sjf_bsbf}


def parse_thresholds(text: str) -> tuple[float, ...]:
    """``"3250,7200"`` -> (3250.0, 7200.0): Tiresias's queue thresholds in GPU-seconds."""
    try:
        values = tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise PackgapError(f"thresholds: expected comma-separated GPU-seconds, got {text!r}") from None
    if any(v <= 0 for v in values):
        raise PackgapError(f"thresholds must be > 0 GPU-seconds, got {text!r}")
    return values


#: The policy classes of :attr:`~packgap.result.SolveResult.scope`: exact-bb's optimum holds
#: over non-preemptive schedules (FIFO, SJF, SJF-FFS and SJF-BSBF are in that class; Tiresias
#: preempts), or, with ``every_batch`` False, over those giving each job the largest fitting
#: sub-batch of Algorithm 2's ladder.
NON_PREEMPTIVE_CLASS = "non-preemptive"
LARGEST_SUB_BATCH = "non-preemptive, largest fitting sub-batch"


def _heuristic(policy: Any) -> Any:
    def run(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
        return MethodOutput(policy(instance, **ctx.params), Status.FEASIBLE, scope=NON_PREEMPTIVE_CLASS)

    return run


def _tiresias(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    thresholds = parse_thresholds(ctx.params["thresholds"])
    return MethodOutput(tiresias(instance, thresholds), Status.FEASIBLE, scope="preemptive")


def best_heuristic(instance: SharingInstance) -> SharingSolution:
    """The non-preemptive heuristic schedule with the least average JCT (an incumbent)."""
    solutions = [policy(instance) for policy in NON_PREEMPTIVE.values()]
    return min(solutions, key=lambda s: FAMILY.evaluate(instance, s).objective)


def _bound(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.sharing.bound import average_jct_lower_bound

    solution = best_heuristic(instance)
    ctx.built()
    return MethodOutput(solution, Status.FEASIBLE, average_jct_lower_bound(instance), message="cheap bound")


def _lp_bound(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    from packgap.analysis.sharing import lp_bound

    solution = best_heuristic(instance)
    ctx.built()
    bound = lp_bound.average_jct_bound(instance, ctx.params["slots"], ctx.time_left())
    return MethodOutput(solution, Status.FEASIBLE, bound, message="rate LP bound (certified by weak duality)")


def _branch_and_bound(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    from packgap.analysis.sharing import lp_bound
    from packgap.models.sharing.branch_bound import solve

    incumbent = best_heuristic(instance)
    left = ctx.time_left()
    out = solve(
        instance,
        incumbent,
        time_limit=left,
        max_nodes=ctx.params["max_nodes"],
        every_batch=ctx.params["every_batch"],
        on_start=ctx.built,
    )
    objective = FAMILY.evaluate(instance, out.solution).objective
    space = "non-preemptive schedules" if ctx.params["every_batch"] else "largest-fitting sub-batch schedules"
    if out.proven:
        message = f"optimum over {space}, proven ({out.nodes} nodes, average JCT {objective:.6g} s)"
    else:
        floor = (out.lower_bound - sum(j.arrival for j in instance.jobs)) / len(instance.jobs)
        message = (
            f"search stopped ({out.nodes} nodes); best schedule's average JCT {objective:.6g} s, "
            f"optimum over {space} >= {floor:.6g} s (open nodes' bound)"
        )
    return MethodOutput(
        out.solution,
        Status.OPTIMAL if out.proven else Status.TIMEOUT,
        lp_bound.average_jct_bound(instance, time_limit=ctx.time_left()),
        solver="packgap-bb",
        message=message,
        scope=NON_PREEMPTIVE_CLASS if ctx.params["every_batch"] else LARGEST_SUB_BATCH,
        internal_objective=(out.sum_completion - sum(j.arrival for j in instance.jobs)) / len(instance.jobs),
    )


def _milp(backend: str) -> Any:
    def run(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
        from packgap.analysis.sharing.relaxation import solve_relaxation

        return solve_relaxation(instance, ctx, backend, ctx.params["slots"])

    return run


METHODS: tuple[Method, ...] = (
    Method(
        "sharing", "fifo", "FIFO, exclusive GPUs (section VI-A 1)", _heuristic(fifo), defaults=signature_defaults(fifo)
    ),
    Method(
        "sharing",
        "sjf",
        "shortest job first, exclusive GPUs (VI-A 2)",
        _heuristic(sjf),
        defaults=signature_defaults(sjf),
    ),
    Method(
        "sharing",
        "tiresias",
        "Tiresias discretised 2D-LAS, preemptive (VI-A 3)",
        _tiresias,
        defaults={"thresholds": "3250"},
    ),
    Method("sharing", "sjf-ffs", "SJF with first-fit sharing (VI-A 4)", _heuristic(sjf_ffs)),
    Method(
        "sharing",
        "sjf-bsbf",
        "SJF-BSBF: Algorithms 1-2 with Theorem 1 (section V)",
        _heuristic(sjf_bsbf),
        defaults=signature_defaults(sjf_bsbf),
    ),
    Method(
        "sharing",
        "bound",
        "cheap valid bound (solo times; SRPT on pooled capacity) beside the best heuristic",
        _bound,
        exact=True,
    ),
    Method(
        "sharing",
        "bound-lp",
        "rate LP bound (per-slot GPU capacity, sharing priced per model pair by xi; weak-duality "
        "certified; valid with preemption) beside the best heuristic",
        _lp_bound,
        exact=True,
        defaults={"slots": 60},
    ),
    Method(
        "sharing",
        "exact-bb",
        "event-driven branch and bound: non-preemptive optimum of small instances (every_batch False: "
        "each job at the largest sub-batch that fits, faster)",
        _branch_and_bound,
        exact=True,
        defaults={"max_nodes": 5_000_000, "every_batch": True},
    ),
    Method(
        "sharing",
        "exact-milp",
        "time-indexed relaxation (HiGHS): valid bound + replayed schedule",
        _milp("highs"),
        exact=True,
        defaults={"slots": 40},
    ),
    Method(
        "sharing",
        "exact-cpsat",
        "time-indexed relaxation (CP-SAT, rounded to relax): valid bound + replayed schedule",
        _milp("cpsat"),
        exact=True,
        defaults={"slots": 40},
    ),
)
