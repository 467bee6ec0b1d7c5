"""packgap hub: domain types, validation and evaluation shared by every method.

The hub imports nothing from ``models``, ``solvers``, ``heuristics``, ``instances`` or
``analysis``: everything above depends on it, never the reverse. :func:`solve` and
:func:`compare` reach the registry of family kits through an import at call time.

>>> import packgap
>>> result = packgap.solve("p.json", "exact-cpsat", time_limit=60)  # doctest: +SKIP
>>> table = packgap.compare(["p.json"], "all", time_limit=60)       # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from packgap.result import SolveResult

__version__ = "0.1.0"


def solve(instance: Any, method: str, **options: Any) -> SolveResult:
    """Solve an instance (file path, document or instance object) with one registered method;
    ``options``: ``time_limit``, ``seed``, ``threads``, ``params``, ``solver``. See
    :func:`packgap.analysis.api.solve`."""
    from packgap.analysis.api import solve as api_solve

    return api_solve(instance, method, **options)


def compare(instances: Any, methods: Any = "all", **options: Any) -> Any:
    """Methods on instances as a pandas DataFrame; ``options``: ``time_limit``, ``seed``,
    ``threads``, ``store``, ``solver``. See :func:`packgap.analysis.api.compare`."""
    from packgap.analysis.api import compare as api_compare

    return api_compare(instances, methods, **options)
