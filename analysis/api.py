"""The Python API behind :func:`packgap.solve`, :func:`packgap.compare`, :func:`packgap.score` and
the plug-in registration of :mod:`packgap.analysis.plugins` (notebook use).

An instance is given as a path to an instance file, as a parsed document (a mapping with
``schema``), or as an instance object of a family. Results are the CLI's: validated, scored
by the family's evaluator, with the same :class:`~packgap.result.SolveResult`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis import registry
from packgap.analysis.plugins import load_plugins, register_method, register_policy
from packgap.errors import PackgapError
from packgap.family import Family
from packgap.result import SolveResult

Instance = str | Path | Mapping[str, Any] | Any

__all__ = ["as_instance", "compare", "load_plugins", "register_method", "register_policy", "score", "solve"]


def as_instance(value: Instance) -> tuple[Family[Any, Any], Any]:
    """The family and the instance object of a path, a document or an instance object."""
    if isinstance(value, str | Path):
        return registry.load_instance(Path(value))
    if isinstance(value, Mapping):
        doc = registry.read_document(value, "<document>")
        if doc.family is None:
            raise PackgapError(f"a {doc.kind} document is not an instance of a family")
        return doc.family, doc.value
    for kit in registry.kits().values():
        # A family's instance types live in its hub package, packgap/<family>/.
        if type(value).__module__.split(".")[:2] == ["packgap", kit.name]:
            return kit.family, value
    raise PackgapError(f"not an instance of any family: {type(value).__name__}")


def _method_names(methods: object) -> str:
    """``methods`` of the API (``"all"``, one name, or a list of names) as the CLI's comma list."""
    if isinstance(methods, str):
        return methods
    if isinstance(methods, list | tuple) and all(isinstance(m, str) for m in methods):
        return ",".join(methods)
    raise PackgapError(f'methods: expected "all", a method name or a list of method names, got {methods!r}')


def solve(
    instance: Instance,
    method: str,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    threads: int = 1,
    params: Mapping[str, Any] | None = None,
    solver: str = "highs",
) -> SolveResult:
    """Solve ``instance`` with the registered ``method`` of its family.

    Arguments are checked as the CLI checks its options (:mod:`packgap.fields`): ``seed`` a whole
    number in [0, 2**31 - 1] (CP-SAT and HiGHS take 32-bit seeds), ``threads`` in [1, 1024],
    ``time_limit`` None or positive seconds (``True`` is not a number), ``solver`` the LP / MILP
    back-end of an exact method that takes one (``packgap solvers``); a bad one raises a
    :class:`~packgap.errors.PackgapError` that names it.
    """
    from packgap.analysis.run import solve as run_solve
    from packgap.solvers import catalogue
    from packgap.solvers.outcome import SolveOptions

    if not isinstance(method, str):
        raise PackgapError(f"method: expected a method name, got {type(method).__name__} {method!r}")
    if params is not None and not isinstance(params, Mapping):
        raise PackgapError(f"params: expected a mapping of parameter names to values, got {type(params).__name__}")
    options = SolveOptions(time_limit=time_limit, seed=seed, threads=threads, solver=solver)
    catalogue.require(solver)
    family, value = as_instance(instance)
    chosen = registry.method(family.name, method)
    chosen.check_solver(solver)
    return run_solve(family, value, chosen, options=options, params=params)


def compare(
    instances: Instance | Sequence[Instance],
    methods: str | Sequence[str] = "all",
    *,
    time_limit: float | None = None,
    seed: int = 0,
    threads: int = 1,
    store: str | Path | None = None,
    solver: str = "highs",
) -> Any:
    """Every method on every instance, as a pandas DataFrame: one row per result, with its
    ``certified_gap`` against the best bound proven on the instance for its class (named in
    ``bound_source``) and its ``best_found_gap`` against the best objective found there, gaps
    as fractions, the objective's unit in ``objective_unit``; ``store`` resumes from a DuckDB file.
    ``methods`` is ``"all"``, a name or a list of names; the options are checked as in :func:`solve`
    (``solver`` applies to the methods that take one)."""
    import pandas as pd

    from packgap.analysis.compare import compare_instance, result_rows
    from packgap.analysis.store import ResultStore
    from packgap.solvers import catalogue
    from packgap.solvers.outcome import SolveOptions

    items: list[Instance] = (
        list(instances) if isinstance(instances, list | tuple) else [instances]  # one path, document or object
    )
    names = _method_names(methods)
    if store is not None and not isinstance(store, str | Path):
        raise PackgapError(f"store: expected a file path, got {type(store).__name__}")
    options = SolveOptions(time_limit=time_limit, seed=seed, threads=threads, solver=solver)
    catalogue.require(solver)
    db = None if store is None else ResultStore(Path(store))
    rows = []
    try:
        for item in items:
            family, value = as_instance(item)
            chosen = registry.resolve(family.name, names)
            rows += result_rows(compare_instance(family, value, chosen, options, store=db))
    finally:
        if db is not None:
            db.close()
    return pd.DataFrame(rows)


def score(
    instance: Instance,
    solution: Any,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    threads: int = 1,
    store: str | Path | None = None,
    bound_methods: str | Sequence[str] | None = None,
) -> SolveResult:
    """Validate and score ``solution`` (a solution object or its document) on ``instance``, with its
    certified gap (``result.gap``) against the best bound of the instance's exact methods: those
    stored in ``store`` if it holds one, else computed now (each under ``time_limit``, or its
    own default) and stored there (:mod:`packgap.analysis.score`)."""
    from packgap.analysis.score import score as score_solution
    from packgap.analysis.store import ResultStore
    from packgap.solvers.outcome import SolveOptions

    if store is not None and not isinstance(store, str | Path):
        raise PackgapError(f"store: expected a file path, got {type(store).__name__}")
    names = None if bound_methods is None else _method_names(bound_methods)
    family, value = as_instance(instance)
    options = SolveOptions(time_limit=time_limit, seed=seed, threads=threads)
    db = None if store is None else ResultStore(Path(store))
    try:
        return score_solution(family, value, solution, options=options, store=db, bound_methods=names)
    finally:
        if db is not None:
            db.close()
