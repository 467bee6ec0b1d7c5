"""How the ``planning`` methods run (declared in :mod:`packgap.analysis.planning.methods`)."""

from __future__ import annotations

from collections.abc import Callable

from packgap.analysis.method import MethodOutput, RunContext
from packgap.errors import PackgapError, TimeLimitReached
from packgap.heuristics.planning import edf, fifo, mchp
from packgap.models.planning import cpsat as cp_planning
from packgap.models.planning.positional_flow import build_positional_slots, slots_to_solution
from packgap.planning import FAMILY, GpuSequence, PlanningInstance, PlanningSolution
from packgap.result import Status
from packgap.solvers.cpsat import solve_cpsat
from packgap.solvers.flow import capacitated_assignment


def _sequences(instance: PlanningInstance, plans: dict[tuple[int, int], list[str]]) -> PlanningSolution:
    return PlanningSolution(
        tuple(GpuSequence(instance.gpu_types[k].name, j, tuple(plan)) for (k, j), plan in sorted(plans.items()) if plan)
    )


def horn_flow(
    instance: PlanningInstance, resolution: float = 1e-6, backend: str = "ortools"
) -> tuple[PlanningSolution, float]:
    """Horn's positional flow: the plan and its certified sum-of-completion lower bound."""
    network = build_positional_slots(instance, resolution)
    result = capacitated_assignment(
        network.costs, network.capacities, backend="networkx" if backend == "networkx" else "ortools"
    )
    if result.cost is None:
        raise PackgapError(f"positional flow failed with status {result.status}")
    return slots_to_solution(instance, network, result.column), result.cost * resolution


def run_exact_flow(instance: PlanningInstance, ctx: RunContext) -> MethodOutput:
    solution, bound = horn_flow(instance, ctx.params["resolution"], ctx.params["backend"])
    exact = instance.tardiness_weight == 0
    return MethodOutput(
        solution,
        Status.OPTIMAL if exact else Status.FEASIBLE,
        bound=bound,
        solver=f"{ctx.params['backend']}-mcf",
        message="" if exact else "exact for sum of completion times; bound ignores tardiness",
        # The flow's cost is its plan's sum of completion times: the objective only without tardiness.
        internal_objective=bound if exact else None,
    )


def _best_plan(instance: PlanningInstance, horn_plan: PlanningSolution) -> PlanningSolution:
    """The best of MCHP, FIFO, EDF and Horn's flow plan: the exact models' warm start."""
    plans = [mchp(instance), fifo(instance), edf(instance), horn_plan]
    return min(plans, key=lambda p: FAMILY.evaluate(instance, p).objective)


def _out_of_time(instance: PlanningInstance, horn_plan: PlanningSolution, horn: float, exc: Exception) -> MethodOutput:
    """A limit spent before the search: the warm start and Horn's bound, status timeout."""
    message = f"{exc}; answer = best of MCHP, FIFO, EDF and Horn's plan, bound = Horn's flow"
    return MethodOutput(_best_plan(instance, horn_plan), Status.TIMEOUT, horn, message=message)


def run_exact_milp(instance: PlanningInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.planning import milp as milp_planning
    from packgap.solvers.highspy_mip import solve_mip

    horn_plan, horn = horn_flow(instance)
    try:
        with ctx.building():
            model = milp_planning.build_milp(instance)
            start = (
                milp_planning.start_from(instance, model, _best_plan(instance, horn_plan))
                if ctx.params["hint"]
                else None
            )
        ctx.built()
        result = solve_mip(model.mip, ctx.solver_options(), start)
    except TimeLimitReached as exc:
        return _out_of_time(instance, horn_plan, horn, exc)
    outcome = result.outcome
    solution = None if result.values is None else milp_planning.extract(instance, model, result.values)
    # Horn's optimum bounds sum C + w * tardiness too: the better of the two bounds counts.
    bound = horn if outcome.bound is None else max(horn, outcome.bound)
    return MethodOutput(
        solution,
        outcome.status,
        bound,
        outcome.solver,
        outcome.version,
        outcome.message,
        internal_objective=outcome.objective,
    )


def run_exact_cpsat(instance: PlanningInstance, ctx: RunContext) -> MethodOutput:
    plan, horn = horn_flow(instance)
    try:
        with ctx.building():
            cp = cp_planning.build_cpsat(
                instance, horn if ctx.params["horn_cut"] else None, plan if ctx.params["hint"] else None
            )
        ctx.built()
        outcome, solver = solve_cpsat(cp.model, ctx.solver_options())
    except TimeLimitReached as exc:
        return _out_of_time(instance, plan, horn, exc)
    solution = None
    if outcome.has_solution:
        solution = _sequences(instance, cp_planning.extract_sequences(cp, solver, instance))
    scale = cp.time_scale * cp.objective_scale
    bound = None if outcome.bound is None else outcome.bound / scale
    own = None if outcome.objective is None else outcome.objective / scale
    return MethodOutput(
        solution, outcome.status, bound, outcome.solver, outcome.version, outcome.message, internal_objective=own
    )


HEURISTICS: dict[str, Callable[..., PlanningSolution]] = {"mchp": mchp, "fifo": fifo, "edf": edf}


def run_heuristic(name: str, instance: PlanningInstance, ctx: RunContext) -> MethodOutput:
    return MethodOutput(HEURISTICS[name](instance, **ctx.params), Status.FEASIBLE)
