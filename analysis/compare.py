"""Compare methods on instances: every answer validated, scored by one evaluator, gaps added."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from packgap.analysis.method import Method
from packgap.analysis.run import check_against_optimum, find_stored, solve
from packgap.analysis.store import ResultStore, instance_digest
from packgap.family import Family
from packgap.result import SolveResult
from packgap.solvers.outcome import SolveOptions


def compare_instance(
    family: Family[Any, Any],
    instance: Any,
    methods: Sequence[Method],
    options: SolveOptions,
    *,
    store: ResultStore | None = None,
    on_done: Callable[[SolveResult], None] | None = None,
) -> list[SolveResult]:
    """Run ``methods`` on one instance; with a store, reuse finished cells and save new ones."""
    digest = instance_digest(family.instance_to_dict(instance))
    results: list[SolveResult] = []
    for method in methods:
        result = None if store is None else find_stored(store, digest, method, options)
        if result is None:
            result = solve(family, instance, method, options=options)
            if store is not None:
                store.append(digest, result, family.summary(instance))
        results.append(result)
        if on_done is not None:
            on_done(result)
    return check_against_optimum(results)


#: The unit of every gap in result rows (``--json``, DataFrames); tables print them in percent.
GAP_UNIT = "fraction of the objective"


def objective_unit(family: str) -> str:
    """The unit of ``family``'s objective (its kit's), "" where the family is not registered."""
    from packgap.analysis import registry

    kit = registry.kits().get(family)
    return "" if kit is None else kit.objective_unit


def result_rows(results: Sequence[SolveResult]) -> list[dict[str, Any]]:
    """Results as ``--json`` and :func:`packgap.compare` give them: each with the unit of its
    objective and bound and of its gaps."""
    return [{**r.to_dict(), "objective_unit": objective_unit(r.family), "gap_unit": GAP_UNIT} for r in results]
