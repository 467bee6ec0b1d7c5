"""Score a solution produced anywhere (``packgap solve FILE --solution SOLUTION.json``,
:func:`packgap.score`): read it with the family's reader, check it with the family's validator,
score it with the evaluator, and give its certified gap against the best proven bound on the
instance, from the stored results of a store when they hold one, else from the family's exact
methods run now (their results are then stored too).

The best bound is the largest bound, or optimal objective of the whole family (scope ""),
among those results; a scored objective below it is a bug of a validator, an evaluator or an
exact method, and raises as in every comparison.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import packgap
from packgap.analysis import plugins
from packgap.analysis.compare import compare_instance
from packgap.analysis.method import Method
from packgap.analysis.run import raise_below_bound
from packgap.analysis.store import ResultStore, instance_digest
from packgap.errors import PackgapError
from packgap.family import Family
from packgap.result import ProvenBound, SolveResult, Status, beats
from packgap.solvers.outcome import SolveOptions

#: The method name of a scored solution's result row.
SCORED = "solution"


def best_bound(results: Sequence[SolveResult]) -> tuple[float | None, str]:
    """The largest proven bound (or whole-family optimum) among ``results``, and who proved it."""
    claims: list[tuple[float, str]] = [(r.bound, r.method) for r in results if r.bound is not None]
    claims += [
        (r.objective, r.method)
        for r in results
        if r.status == Status.OPTIMAL and r.objective is not None and r.scope == ""
    ]
    if not claims:
        return None, ""
    return max(claims, key=lambda c: c[0])


def exact_methods(family: str, names: str | None) -> list[Method]:
    """The family's exact methods, or the named ones (each must be exact)."""
    from packgap.analysis import registry

    if names is None:
        return [m for m in registry.methods(family).values() if m.exact]
    chosen = registry.resolve(family, names)
    loose = [m.name for m in chosen if not m.exact]
    if loose:
        raise PackgapError(f"--bound-methods: {', '.join(loose)} prove no bound (choose exact methods)")
    return chosen


def score(
    family: Family[Any, Any],
    instance: Any,
    solution: Any,
    *,
    options: SolveOptions,
    store: ResultStore | None = None,
    bound_methods: str | None = None,
    name: str = SCORED,
) -> SolveResult:
    """The scored result of ``solution`` (an object or its document) on ``instance``.

    A malformed document raises :class:`~packgap.errors.InstanceError` naming each field path,
    an invalid solution :class:`~packgap.errors.ValidationError` naming each violated rule.
    """
    start = time.perf_counter()
    if isinstance(solution, Mapping):
        solution = plugins.as_solution(family.name, solution)
    family.validate(instance, solution)
    evaluation = family.evaluate(instance, solution)
    wall = time.perf_counter() - start
    digest = instance_digest(family.instance_to_dict(instance))
    stored = [] if store is None else [r for r in store.results_of(digest) if r.family == family.name]
    bound, who = best_bound(stored)
    source = "stored"
    if bound is None:
        exact = exact_methods(family.name, bound_methods)
        if not exact:
            raise PackgapError(f"the {family.name} family has no exact method to bound the solution")
        bound, who = best_bound(compare_instance(family, instance, exact, options, store=store))
        source = "computed"
    objective = evaluation.objective
    if bound is not None and beats(objective, bound):
        raise_below_bound(name, instance.name, objective, bound)
    message = f"bound {source} by {who}" if bound is not None else "no exact method proved a bound"
    result = SolveResult(
        family=family.name,
        method=name,
        instance=instance.name,
        status=Status.FEASIBLE,
        objective=objective,
        bound=bound,
        wall_s=wall,
        solver="packgap-score",
        solver_version=packgap.__version__,
        seed=options.seed,
        metrics=dict(evaluation.metrics),
        solution=family.solution_to_dict(solution),
        message=message,
        solve_s=wall,
    )
    proofs = [] if bound is None else [ProvenBound(bound, who, "bound", "")]
    return result.with_gaps(None, proofs)
