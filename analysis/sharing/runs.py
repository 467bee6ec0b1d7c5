"""How the ``sharing`` methods run (declared, with the exact methods' bounds and scopes
explained, in :mod:`packgap.analysis.sharing.methods`)."""

from __future__ import annotations

from collections.abc import Callable

from packgap.analysis.method import MethodOutput, RunContext
from packgap.analysis.sharing.methods import LARGEST_SUB_BATCH, NON_PREEMPTIVE_CLASS, parse_thresholds
from packgap.heuristics.sharing.exclusive import fifo, sjf
from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
from packgap.heuristics.sharing.tiresias import tiresias
from packgap.result import Status
from packgap.sharing import FAMILY, SharingInstance, SharingSolution
from packgap.solvers import catalogue

NON_PREEMPTIVE: dict[str, Callable[..., SharingSolution]] = {
    "fifo": fifo,
    "sjf": sjf,
    "sjf-ffs": sjf_ffs,
    "sjf-bsbf": sjf_bsbf,
}


def run_heuristic(name: str, instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    return MethodOutput(NON_PREEMPTIVE[name](instance, **ctx.params), Status.FEASIBLE, scope=NON_PREEMPTIVE_CLASS)


def run_tiresias(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    params = ctx.params
    solution = tiresias(
        instance, parse_thresholds(params["thresholds"]), params["queue_order"], params["resume_overhead_s"]
    )
    return MethodOutput(solution, Status.FEASIBLE, scope="preemptive")


def best_heuristic(instance: SharingInstance) -> SharingSolution:
    """The non-preemptive heuristic schedule with the least average JCT (an incumbent)."""
    solutions = [policy(instance) for policy in NON_PREEMPTIVE.values()]
    return min(solutions, key=lambda s: FAMILY.evaluate(instance, s).objective)


def run_bound(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.sharing.bound import average_jct_lower_bound

    solution = best_heuristic(instance)
    ctx.built()
    return MethodOutput(solution, Status.FEASIBLE, average_jct_lower_bound(instance), message="cheap bound")


def run_lp_bound(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    from packgap.analysis.sharing import lp_bound

    solution = best_heuristic(instance)
    ctx.built()
    solver = ctx.options.solver
    bound = lp_bound.average_jct_bound(instance, ctx.params["slots"], ctx.time_left(), solver, solution)
    message = "rate LP bound (certified by weak duality)"
    return MethodOutput(solution, Status.FEASIBLE, bound, solver, catalogue.version(solver), message)


def run_class_bound(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    from packgap.analysis.sharing import lp_bound

    solution = best_heuristic(instance)
    ctx.built()
    slots = ctx.params["slots"] or None
    bound, status = lp_bound.average_jct_class_bound(instance, slots, ctx.time_left(), ctx.params["blocks"])
    return MethodOutput(
        solution,
        Status.FEASIBLE,
        message=f"class bound over non-preemptive schedules (run LP certified by weak duality; {status})",
        scope=NON_PREEMPTIVE_CLASS,
        class_bound=bound,
    )


def run_branch_and_bound(instance: SharingInstance, ctx: RunContext) -> MethodOutput:
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
    arrivals = sum(j.arrival for j in instance.jobs)
    floor = (out.lower_bound - arrivals) / len(instance.jobs)
    if out.proven:
        message = f"optimum over {space}, proven ({out.nodes} nodes, average JCT {objective:.6g} s)"
    else:
        message = (
            f"search stopped ({out.nodes} nodes); best schedule's average JCT {objective:.6g} s, "
            f"optimum over {space} >= {floor:.6g} s (open nodes' bound)"
        )
    return MethodOutput(
        out.solution,
        Status.OPTIMAL if out.proven else Status.TIMEOUT,
        lp_bound.average_jct_bound(
            instance, time_limit=ctx.time_left(), solver=ctx.options.solver, incumbent=incumbent
        ),
        solver=f"packgap-bb+{ctx.options.solver}",
        solver_version=catalogue.version(ctx.options.solver),
        message=message,
        scope=NON_PREEMPTIVE_CLASS if ctx.params["every_batch"] else LARGEST_SUB_BATCH,
        # The search's own bound holds for its scope only: a stopped search's open nodes certify
        # the class gap of every policy in it (issue 35), as a proven optimum does.
        class_bound=None if out.proven else floor,
        internal_objective=(out.sum_completion - arrivals) / len(instance.jobs),
    )


def run_relaxation(backend: str, instance: SharingInstance, ctx: RunContext) -> MethodOutput:
    from packgap.analysis.sharing.relaxation import solve_relaxation

    return solve_relaxation(instance, ctx, backend, ctx.params["slots"])
