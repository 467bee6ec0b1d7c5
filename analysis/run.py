"""The solve driver: run one method, validate its answer, score it with the family evaluator.

Only the method's own call is timed (benchopt), model building included: a time limit is a
wall-clock promise, and exact methods get their default limit when the caller names none.
A heuristic objective below a proven bound raises
:class:`~packgap.errors.OptimalityViolationError`: it is a bug, never a number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis.method import Clock, Method, MethodOutput, RunContext
from packgap.analysis.store import ResultStore, params_key
from packgap.errors import (
    OptimalityViolationError,
    PackgapError,
    SolverUnavailableError,
    TimeLimitReached,
    ValidationError,
)
from packgap.family import Family
from packgap.result import SolveResult, Status, beats, certified_gap
from packgap.solvers.outcome import SolveOptions


def solve(
    family: Family[Any, Any],
    instance: Any,
    method: Method,
    *,
    options: SolveOptions,
    params: Mapping[str, Any] | None = None,
) -> SolveResult:
    """Run ``method`` on ``instance``; the result's objective comes from the evaluator.

    Expected trouble inside the method (an instance a model cannot take) becomes status
    ``error`` with its message, so a comparison keeps what it already has; a solver that
    cannot run here (not installed, no licence, a model over a size-limited licence) raises
    :class:`~packgap.errors.SolverUnavailableError`, since every later cell would fail alike.
    An answer that fails validation raises: an invalid answer is an error, not a number.
    """
    resolved = method.resolve_params(params or {})
    options = method.options_for(options)
    ctx = RunContext(options, resolved, Clock())
    try:
        output = method.run(instance, ctx)
    except (ValidationError, SolverUnavailableError):
        raise
    except TimeLimitReached as exc:
        output = MethodOutput(None, Status.TIMEOUT, message=str(exc))
    except PackgapError as exc:
        return _failed(family, instance, method, options, resolved, ctx.clock.elapsed(), str(exc))
    wall = ctx.clock.elapsed()
    build = min(ctx.clock.build_s(), wall)
    objective = None
    metrics: dict[str, float | None] = {}
    solution_doc = None
    if output.solution is not None:
        family.validate(instance, output.solution)
        evaluation = family.evaluate(instance, output.solution)
        objective = evaluation.objective
        metrics = dict(evaluation.metrics)
        if output.internal_objective is not None:
            metrics[INTERNAL_OBJECTIVE] = output.internal_objective
        solution_doc = family.solution_to_dict(output.solution)
    status, bound, message = _finite_claim(output)
    finite = objective is None or math.isfinite(objective)
    if (output.solution is None or not finite) and status in (Status.OPTIMAL, Status.FEASIBLE):
        status = Status.ERROR
    # A class bound holds for the method's own answer: it lies in the method's scope.
    own = [b for b in (bound, output.class_bound) if b is not None and math.isfinite(b)]
    if objective is not None and finite and own:
        for proven in own:
            if beats(objective, proven):
                raise_below_bound(method.name, instance.name, objective, proven)
        if status in (Status.FEASIBLE, Status.TIMEOUT) and certified_gap(objective, max(own)) == 0:
            status = Status.OPTIMAL
    result = SolveResult(
        family=family.name,
        method=method.name,
        instance=instance.name,
        status=status,
        objective=objective,
        bound=bound,
        wall_s=wall,
        solver=output.solver,
        solver_version=output.solver_version,
        seed=options.seed,
        params=result_params(resolved, options, method),
        metrics=metrics,
        solution=solution_doc,
        message=message,
        build_s=build,
        solve_s=wall - build,
        scope=output.scope,
        class_bound=output.class_bound,
    )
    # Alone, a result is certified by its own proofs; compare adds every other method's.
    return result.with_gaps(None, result.own_proofs())


#: Metric holding :attr:`MethodOutput.internal_objective`.
INTERNAL_OBJECTIVE = "internal_objective"


def _finite_claim(output: MethodOutput) -> tuple[Status, float | None, str]:
    """The method's status, bound and message, with a non-finite bound dropped: -inf proves
    nothing, +inf or NaN is a broken claim, and optimality is never claimed on one (issue 17:
    an exact method that scanned nothing reported "optimal" with bound inf)."""
    if output.bound is None or math.isfinite(output.bound):
        return output.status, output.bound, output.message
    note = f"non-finite bound {output.bound} dropped"
    status = output.status
    if status == Status.OPTIMAL:
        status = Status.FEASIBLE
        note += ", so optimality is not claimed"
    return status, None, f"{output.message}; {note}" if output.message else note


def raise_below_bound(method: str, instance: str, objective: float, bound: float) -> None:
    raise OptimalityViolationError(
        f"{method} on {instance}: validated objective {objective!r} is below the proven bound {bound!r}"
    )


def find_stored(
    store: ResultStore,
    digest: str,
    method: Method,
    options: SolveOptions,
    params: Mapping[str, Any] | None = None,
) -> SolveResult | None:
    """The stored result of ``method`` with ``params`` (defaults for the rest) on the instance
    ``digest``, if any: the one lookup compare and sweep share, so both resume the same cells."""
    key = result_params(method.resolve_params(params or {}), method.options_for(options), method)
    return store.find(digest, method.name, options.seed, params_key(key))


def result_params(params: Mapping[str, Any], options: SolveOptions, method: Method) -> dict[str, Any]:
    """The parameters a result row records: the method's own plus the solver options (the LP /
    MILP ``solver`` where the method takes one, so that a HiGHS row never answers for SCIP's
    cell). A time limit is recorded as a float, so that ``time_limit = 60`` in a spec file finds
    the rows of ``--time-limit 60``."""
    time_limit = None if options.time_limit is None else float(options.time_limit)
    recorded = {**params, "time_limit": time_limit, "mip_gap": options.mip_gap, "threads": options.threads}
    if method.solvers:
        recorded["solver"] = options.solver
    return recorded


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
        params=result_params(params, options, method),
        message=message,
    )


def check_against_optimum(results: Sequence[SolveResult]) -> list[SolveResult]:
    """Add the certified and best-found gaps, and fail loudly when any objective beats a bound
    or a proven optimum of its own class (or of every class) of another method on the same instance.

    A bound holds for every solution; an ``optimal`` status and a ``class_bound`` only within
    their result's ``scope`` (sharing's non-preemptive optimum and class bound do not bind
    preemptive Tiresias). A result's certified gap is against the highest of the proofs that
    hold for its class (:meth:`~packgap.result.SolveResult.own_proofs` of every result)."""
    objectives = [r.objective for r in results if r.objective is not None]
    best = min(objectives) if objectives else None
    proofs = [p for r in results for p in r.own_proofs()]
    checked = []
    for r in results:
        for proof in proofs:
            if r.objective is not None and proof.scope in ("", r.scope) and beats(r.objective, proof.value):
                raise OptimalityViolationError(
                    f"{r.method} on {r.instance}: objective {r.objective!r} beats {proof.method}'s proven "
                    f"{proof.kind} {proof.value!r}"
                )
        checked.append(r.with_gaps(best, proofs))
    return checked
