"""packgap hub: domain types, validation and evaluation shared by every method.

The hub imports nothing from ``models``, ``solvers``, ``heuristics``, ``instances`` or
``analysis``: everything above depends on it, never the reverse. :func:`solve` and
:func:`compare` reach the registry of family kits through an import at call time.

>>> import packgap
>>> result = packgap.solve("p.json", "exact-cpsat", time_limit=60)  # doctest: +SKIP
>>> table = packgap.compare(["p.json"], "all", time_limit=60)       # doctest: +SKIP

Own heuristics and online policies plug in from outside (:mod:`packgap.analysis.plugins`):

>>> @packgap.register_method("placement", "fastest-free")            # doctest: +SKIP
... def fastest_free(instance, context): ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

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


def score(instance: Any, solution: Any, **options: Any) -> SolveResult:
    """Validate and score a solution produced anywhere, with its certified gap against the best bound
    of the instance's exact methods; ``options``: ``time_limit``, ``seed``, ``threads``, ``store``,
    ``bound_methods``. See :func:`packgap.analysis.api.score`."""
    from packgap.analysis.api import score as api_score

    return api_score(instance, solution, **options)


def register_method(family: str, name: str, function: Any = None, **options: Any) -> Callable[..., Any]:
    """Register ``function(instance, context)`` as a method of ``family`` (a decorator without
    ``function``); ``options``: ``params``, ``description``. See :mod:`packgap.analysis.plugins`."""
    from packgap.analysis.api import register_method as api_register

    return api_register(family, name, function, **options)


def register_policy(family: str, name: str, function: Any = None, **options: Any) -> Callable[..., Any]:
    """Register an online policy of ``family`` (sharing, placement, packing) for ``packgap simulate``
    (a decorator without ``function``); ``options``: ``description``, ``sticky``. See
    :mod:`packgap.analysis.plugins`."""
    from packgap.analysis.api import register_policy as api_register

    return api_register(family, name, function, **options)


def load_plugins(*specs: str) -> list[str]:
    """Import plug-in modules or ``.py`` files by name (as ``--plugin``), kept for a sweep's workers."""
    from packgap.analysis.api import load_plugins as api_load

    return api_load(*specs)
