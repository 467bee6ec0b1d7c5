"""The solve driver: run one method, validate its answer, score it with the family evaluator.

Only the method's own call is timed (benchopt). A heuristic objective below a proven bound
raises :class:`~packgap.errors.OptimalityViolationError`: it is a bug, never a number.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from analysis.methods import Method, RunContext
from packgap.errors import OptimalityViolationError, PackgapError, ValidationError
from packgap.family import Family
from packgap.result import SolveResult, Status, beats, certified_gap
from solvers.outcome import SolveOptions


def solve(
    family: Family[Any, Any],
    instance: Any,
    method: Method,
    *,
    options: SolveOptions,
    params: Mapping[str, Any] | None = None,
) -> SolveResult:
    """Run ``method`` on ``instance``; the result's objective comes from the evaluator.

    Expected trouble inside the method (a missing solver, an instance a model cannot take)
    becomes status ``error`` with its message, so a comparison keeps what it already has.
    An answer that fails validation raises: an invalid answer is an error, not a number.
    """
    resolved = method.resolve_params(params or {})
    ctx = RunContext(options, resolved)
    start = time.perf_counter()
    try:
        output = method.run(instance, ctx)
    except ValidationError:
        raise
    except PackgapError as exc:
        return _failed(family, instance, method, options, resolved, time.perf_counter() - start, str(exc))
    wall = time.perf_counter() - start
    objective = None
    metrics: dict[str, float] = {}
    solution_doc = None
    if output.solution is not None:
        family.validate(instance, output.solution)
        evaluation = family.evaluate(instance, output.solution)
        objective = evaluation.objective
        metrics = dict(evaluation.metrics)
        solution_doc = family.solution_to_dict(output.solution)
    status = output.status
    if output.solution is None and status in (Status.OPTIMAL, Status.FEASIBLE):
        status = Status.ERROR
    if objective is not None and output.bound is not None:
        if beats(objective, output.bound):
            raise_below_bound(method.name, instance.name, objective, output.bound)
        if status in (Status.FEASIBLE, Status.TIMEOUT) and certified_gap(objective, output.bound) == 0:
            status = Status.OPTIMAL
    return SolveResult(
        family=family.name,
        method=method.name,
        instance=instance.name,
        status=status,
        objective=objective,
        bound=output.bound,
        wall_s=wall,
        solver=output.solver,
        solver_version=output.solver_version,
        seed=options.seed,
        params=result_params(resolved, options),
        metrics=metrics,
        solution=solution_doc,
        message=output.message,
    )


def raise_below_bound(method: str, instance: str, objective: float, bound: float) -> None:
    raise OptimalityViolationError(
        f"{method} on {instance}: validated objective {objective!r} is below the proven bound {bound!r}"
    )


def default_params(method: Method, options: SolveOptions) -> dict[str, Any]:
    """What a result row of ``method`` run with its defaults records (the store's cell key)."""
    return result_params(method.resolve_params({}), options)


def result_params(params: Mapping[str, Any], options: SolveOptions) -> dict[str, Any]:
    """The parameters a result row records: the method's own plus the solver options."""
    return {**params, "time_limit": options.time_limit, "mip_gap": options.mip_gap, "threads": options.threads}


def _failed(
    family: Family[Any, Any],
    instance: Any,
    method: Method,
    options: SolveOptions,
    params: dict[str, Any],
    wall: float,
    message: str,
) -> SolveResult:
    return SolveResult(
        family=family.name,
        method=method.name,
        instance=instance.name,
        status=Status.ERROR,
        objective=None,
        bound=None,
        wall_s=wall,
        solver="",
        solver_version="",
        seed=options.seed,
        params=result_params(params, options),
        message=message,
    )


def check_against_optimum(results: Sequence[SolveResult]) -> list[SolveResult]:
    """Add primal gaps against the best objective, and fail loudly when any objective beats
    a proven optimum or bound of another method on the same instance."""
    objectives = [r.objective for r in results if r.objective is not None]
    best = min(objectives) if objectives else None
    bounds = [(r.method, r.bound) for r in results if r.bound is not None]
    bounds += [(r.method, r.objective) for r in results if r.status == Status.OPTIMAL and r.objective is not None]
    for r in results:
        for who, bound in bounds:
            if r.objective is not None and bound is not None and beats(r.objective, bound):
                raise OptimalityViolationError(
                    f"{r.method} on {r.instance}: objective {r.objective!r} beats {who}'s proven "
                    f"{'optimum' if who != r.method else 'bound'} {bound!r}"
                )
    return [r.with_primal_gap(best) for r in results]
