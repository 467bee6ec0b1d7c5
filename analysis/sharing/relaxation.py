"""The time-indexed relaxation as a method: build, solve (a MILP on ``--solver``, or CP-SAT), replay.

The solver's proven bound on the relaxation is a valid bound on the sum of completion
times (:mod:`packgap.models.sharing.time_indexed`); the schedule is Algorithm 1's placement with
the relaxation's completion times as priorities, replayed by the online driver, so it is
a real schedule that the evaluator scores like any other. The horizon is the makespan of
the best heuristic schedule.
"""

from __future__ import annotations

from packgap.analysis.method import MethodOutput, RunContext
from packgap.analysis.sharing.runs import best_heuristic
from packgap.errors import TimeLimitReached
from packgap.heuristics.sharing.sjf_bsbf import bsbf_in_order
from packgap.models.sharing import time_indexed
from packgap.models.sharing.bound import average_jct_lower_bound
from packgap.result import Status
from packgap.sharing import FAMILY, SharingInstance, SharingSolution
from packgap.solvers.cpsat import solve_cpsat
from packgap.solvers.pyomo_models import solve_pyomo


def solve_relaxation(instance: SharingInstance, ctx: RunContext, backend: str, slots: int) -> MethodOutput:
    """The relaxation's bound and replayed schedule; when the time limit stops the build, the
    best heuristic schedule and the cheap bound (the best answer at hand) with status timeout."""
    incumbent = best_heuristic(instance)
    try:
        return _solve(instance, ctx, backend, slots, incumbent)
    except TimeLimitReached as exc:
        message = f"{exc}; schedule = best heuristic, bound = cheap bound"
        return MethodOutput(incumbent, Status.TIMEOUT, average_jct_lower_bound(instance), message=message)


def _solve(
    instance: SharingInstance, ctx: RunContext, backend: str, slots: int, incumbent: SharingSolution
) -> MethodOutput:
    horizon = FAMILY.evaluate(instance, incumbent).metrics["makespan_s"]
    data = time_indexed.slot_data(instance, max(horizon, 1e-6), slots)
    if backend == "highs":  # the MILP, on ctx.options.solver (HiGHS by default)
        with ctx.building():
            model = time_indexed.build_milp(data)
        ctx.built()
        outcome = solve_pyomo(model, ctx.solver_options())
        bound_sum = outcome.bound
        order = time_indexed.milp_completions(model, data) if outcome.has_solution else None
    else:
        with ctx.building():
            cp = time_indexed.build_cpsat(data)
        ctx.built()
        outcome, solver = solve_cpsat(cp.model, ctx.solver_options())
        bound_sum = None if outcome.bound is None else outcome.bound * cp.time_unit
        order = [float(solver.Value(c)) * cp.time_unit for c in cp.completion] if outcome.has_solution else None
    solution = incumbent
    if order is not None:
        replayed = bsbf_in_order(instance, {j.id: c for j, c in zip(instance.jobs, order, strict=True)})
        if FAMILY.evaluate(instance, replayed).objective < FAMILY.evaluate(instance, incumbent).objective:
            solution = replayed
    n = len(instance.jobs)
    bound = None if bound_sum is None else (bound_sum - sum(j.arrival for j in instance.jobs)) / n
    status = Status.FEASIBLE if outcome.status in (Status.OPTIMAL, Status.FEASIBLE) else outcome.status
    message = f"relaxation {outcome.status}; schedule = {'replay' if solution is not incumbent else 'best heuristic'}"
    return MethodOutput(solution, status, bound, outcome.solver, outcome.version, message)
