"""Pyomo models solved by HiGHS through Pyomo's ``contrib.solver`` interface.

This interface drives ``highspy`` in process (no files). It was chosen over ``appsi_highs``
because it is the maintained successor with the same in-process path; model build cost is
Pyomo's, about 17 us per nonzero (DESIGN.md), the same for both. The hand-over runs through
the interface's public persistent calls in chunks of rows (:func:`_hand_over`), with a
deadline check (:mod:`packgap.deadline`) between two chunks.
"""

from __future__ import annotations

import time
from typing import Any

from packgap.deadline import check, within
from packgap.errors import SolverUnavailableError, TimeLimitReached
from packgap.result import Status
from packgap.solvers.interrupt import stoppable
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions, SolverOutcome, status_from_gap

#: The model was just handed over whole: skip Pyomo's walk looking for changes.
_NO_UPDATES = {
    "check_for_new_or_removed_constraints": False,
    "check_for_new_or_removed_vars": False,
    "check_for_new_or_removed_params": False,
    "check_for_new_objective": False,
    "update_constraints": False,
    "update_vars": False,
    "update_parameters": False,
    "update_named_expressions": False,
    "update_objective": False,
}
#: Seconds one chunk of the hand-over aims at: the chunk doubles while it takes less and
#: halves when it takes more than twice as long (a placement row has 2 to 2,000 nonzeros).
CHUNK_S = 0.02


def _highs() -> Any:
    try:
        from pyomo.contrib.solver.solvers.highs import Highs
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise SolverUnavailableError(f"Pyomo's HiGHS interface cannot be imported: {exc}") from None
    solver = Highs()
    if not solver.available():
        raise SolverUnavailableError("HiGHS is not available: install highspy==1.12.0")
    return solver


def _cancel(solver: Any) -> None:
    """Stop Pyomo's running HiGHS: its ``highspy.Highs`` (created inside ``solve``, with
    user interrupts enabled by Pyomo) is the private ``_solver_model``, the only handle."""
    highs = getattr(solver, "_solver_model", None)
    if highs is not None:
        highs.cancelSolve()


def version() -> str:
    import highspy

    h = highspy.Highs()
    return f"{h.versionMajor()}.{h.versionMinor()}.{h.versionPatch()}"


def _hand_over(solver: Any, model: Any) -> None:
    """``solver.set_instance(model)``, its rows added a chunk at a time (:data:`CHUNK_S`) with
    a deadline check before each: the objective and its variables go first (the rows
    deactivated meanwhile), then the interface's ``add_constraints`` takes each chunk."""
    import pyomo.environ as pyo

    rows = list(model.component_data_objects(pyo.Constraint, active=True, descend_into=True))
    for row in rows:
        row.deactivate()
    try:
        solver.set_instance(model)
    finally:
        for row in rows:
            row.activate()
    done, size = 0, 1
    while done < len(rows):
        check()
        began = time.perf_counter()
        solver.add_constraints(rows[done : done + size])
        done += size
        took = time.perf_counter() - began
        size = size * 2 if took < CHUNK_S else max(1, size // 2) if took > 2 * CHUNK_S else size


def solve_highs(model: Any, options: SolveOptions) -> SolverOutcome:
    """Solve a Pyomo model with HiGHS, loading the incumbent into the model's variables."""
    from pyomo.contrib.solver.common.results import SolutionStatus, TerminationCondition

    solver = _highs()
    config: dict[str, Any] = {
        "load_solutions": False,
        "raise_exception_on_nonoptimal_result": False,
        "rel_gap": options.mip_gap,
        "threads": options.threads,
        # HiGHS's default absolute gap (1e-6) called a 0.7e-6 packing answer optimal against 0.4e-6
        "solver_options": {"random_seed": options.seed, "output_flag": False, "mip_abs_gap": 0.0},
    }
    if options.node_limit is not None:
        config["solver_options"]["mip_max_nodes"] = options.node_limit
    start = time.perf_counter()
    # Handing the model to HiGHS costs Pyomo ~17 us per nonzero (15 s for a 256-GPU placement
    # MILP) outside HiGHS's own clock: do it first, under the deadline, and give HiGHS the rest.
    try:
        with within(options.time_limit, "handing the model to HiGHS"):
            _hand_over(solver, model)
    except TimeLimitReached as exc:
        return SolverOutcome(Status.TIMEOUT, None, None, time.perf_counter() - start, "highs", version(), str(exc))
    if options.time_limit is not None:
        left = options.time_limit - (time.perf_counter() - start)
        if left < MIN_SOLVE_S:
            message = f"time limit spent handing the model to HiGHS ({time.perf_counter() - start:.3g} s)"
            return SolverOutcome(Status.TIMEOUT, None, None, time.perf_counter() - start, "highs", version(), message)
        config["time_limit"] = left
    with stoppable(lambda: _cancel(solver)):
        results = solver.solve(model, **config, auto_updates=_NO_UPDATES)
    wall = time.perf_counter() - start
    has_solution = results.solution_status in (SolutionStatus.feasible, SolutionStatus.optimal)
    if has_solution:
        results.solution_loader.load_vars()
    objective = results.incumbent_objective if has_solution else None
    bound = results.objective_bound
    bound = None if bound is None or abs(bound) == float("inf") else float(bound)
    tc = results.termination_condition
    if tc in (
        TerminationCondition.provenInfeasible,
        TerminationCondition.locallyInfeasible,
        TerminationCondition.infeasibleOrUnbounded,
    ):
        status = Status.INFEASIBLE
    elif tc in (TerminationCondition.maxTimeLimit, TerminationCondition.iterationLimit):
        status = Status.TIMEOUT
    elif tc == TerminationCondition.convergenceCriteriaSatisfied:
        status = status_from_gap(objective, bound)
    else:
        status = Status.ERROR
    return SolverOutcome(status, objective, bound, wall, "highs", version(), str(tc.name))
