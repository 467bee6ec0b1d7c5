"""The one call shape of every method, heuristic or exact (STYLE.md: scikit-learn, pymoo).

A method receives an instance and a :class:`RunContext` and returns a :class:`MethodOutput`:
a solution plus what only the method knows (status, proven bound, solver name). It never
reports an objective: the driver validates the solution and the family's evaluator scores it.

``--time-limit`` is a wall-clock promise that covers model building: a method calls
:meth:`RunContext.built` once its model is built and hands the solver
:meth:`RunContext.solver_options`, whose time limit is what is left of the budget. The rest
of the run is kept by :mod:`packgap.deadline`: :meth:`RunContext.limited` puts the run's
deadline in force, and the code inside checks it at safe points.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from typing import Any

import packgap
from packgap.deadline import BUILD_RESERVE, within
from packgap.errors import PackgapError, TimeLimitReached
from packgap.result import Status
from packgap.solvers import catalogue
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions

#: Share of the build time kept back from the solver's limit for loading the model into the
#: solver and reading, validating and scoring its answer, which no solver clock counts: CP-SAT
#: loads and presolves a 256-GPU placement model (3 M terms, built in 2.9-4.0 s) for 0.4-1.1 s
#: past its ``max_time_in_seconds`` (measured, issue 17).
HANDOVER_SHARE = 0.3


@dataclass
class Clock:
    """Wall time of one run: started at construction, ``built_at`` set by the method."""

    start: float = field(default_factory=time.perf_counter)
    built_at: float | None = None

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def build_s(self) -> float:
        return 0.0 if self.built_at is None else self.built_at - self.start


@dataclass(frozen=True)
class RunContext:
    options: SolveOptions
    params: Mapping[str, Any]
    clock: Clock = field(default_factory=Clock)

    def built(self) -> None:
        """Mark the end of model building (recorded as ``build_s`` in the result)."""
        self.clock.built_at = time.perf_counter()

    def building(self) -> AbstractContextManager[None]:
        """Guard a model build (pure Python, no clock of its own): :meth:`limited` for
        ``"building the model"``, stopping :data:`~packgap.deadline.BUILD_RESERVE` x the build's
        time early so that freeing a stopped build stays inside the limit."""
        return within(self.time_left(), "building the model", BUILD_RESERVE)

    def limited(self, what: str) -> AbstractContextManager[None]:
        """Run the block under the run's deadline, doing ``what``: once the time limit passes,
        the block's next check (:mod:`packgap.deadline`) raises
        :class:`~packgap.errors.TimeLimitReached`, so the run ends as a timeout."""
        return within(self.time_left(), what)

    def time_left(self) -> float | None:
        """Seconds left of ``options.time_limit`` (None: no limit)."""
        if self.options.time_limit is None:
            return None
        return self.options.time_limit - self.clock.elapsed()

    def solver_options(self) -> SolveOptions:
        """The solver's options with the time limit cut to what is left of the wall budget,
        less :data:`HANDOVER_SHARE` of the build time; raises
        :class:`~packgap.errors.TimeLimitReached` when (almost) nothing is left."""
        left = self.time_left()
        if left is None:
            return self.options
        left -= HANDOVER_SHARE * self.clock.build_s()
        if left < MIN_SOLVE_S:
            raise TimeLimitReached(f"time limit of {self.options.time_limit:g} s spent building the model")
        return replace(self.options, time_limit=left)


@dataclass(frozen=True)
class MethodOutput:
    solution: Any | None
    status: Status
    bound: float | None = None
    solver: str = "packgap"
    solver_version: str = packgap.__version__
    message: str = ""
    #: The class of solutions the status speaks for and the solution belongs to ("" = all).
    scope: str = ""
    #: A lower bound valid for the solutions of ``scope`` only (``bound`` holds for all).
    class_bound: float | None = None
    #: The method's own objective value of ``solution`` (a model's or solver's, converted to the
    #: evaluator's units); recorded as metric ``internal_objective`` so tests can hold it to the
    #: evaluator's score. None: the method has no value of its own for this solution.
    internal_objective: float | None = None


@dataclass(frozen=True)
class Method:
    """A registered method: ``defaults`` declares every parameter it accepts.

    ``exact`` methods prove bounds; every exact method, and every other method that runs a
    solver's search, runs under a time limit, its own ``default_time_limit`` unless the caller
    gives one, so nothing runs for hours by accident.

    ``solvers`` names the LP / MILP back-ends (:mod:`packgap.solvers.catalogue`) a method
    that hands a model to one takes as ``SolveOptions.solver`` (``--solver``); a method
    without them (heuristics, CP-SAT models) runs with the default and records none.
    """

    family: str
    name: str
    description: str
    run: Callable[[Any, RunContext], MethodOutput]
    exact: bool = False
    defaults: Mapping[str, Any] = field(default_factory=dict)
    default_time_limit: float | None = None
    solvers: tuple[str, ...] = ()
    #: The plug-in module (or ``.py`` file) that registered it; "" for packgap's own
    #: (:mod:`packgap.analysis.plugins`).
    plugin: str = ""

    def __post_init__(self) -> None:
        if self.exact and self.default_time_limit is None:
            object.__setattr__(self, "default_time_limit", DEFAULT_EXACT_TIME_LIMIT)

    def resolve_params(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overridden by ``given``; an unknown or mistyped name fails loudly."""
        unknown = sorted(set(given) - set(self.defaults))
        if unknown:
            known = ", ".join(sorted(self.defaults)) or "none"
            raise PackgapError(f"method {self.name!r} has no parameter {', '.join(unknown)} (known: {known})")
        params = dict(self.defaults)
        for key, value in given.items():
            default = self.defaults[key]
            if default is not None and not isinstance(value, type(default)):
                if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                    value = float(value)
                else:
                    raise PackgapError(
                        f"method {self.name!r}: parameter {key} must be {type(default).__name__}, got {value!r}"
                    )
            params[key] = value
        return params

    def options_for(self, options: SolveOptions) -> SolveOptions:
        """``options`` with this method's default time limit when the caller set none, and the
        default solver when the method takes no other."""
        if options.time_limit is None and self.default_time_limit is not None:
            options = replace(options, time_limit=self.default_time_limit)
        if options.solver not in self.solvers and options.solver != catalogue.DEFAULT:
            options = replace(options, solver=catalogue.DEFAULT)
        return options

    def check_solver(self, solver: str) -> None:
        """Refuse a ``solver`` this method does not take (one method named on its own)."""
        if solver != catalogue.DEFAULT and solver not in self.solvers:
            raise PackgapError(
                f"--solver {solver}: method {self.name!r} hands no model to an LP / MILP solver"
                + (f" (it takes {', '.join(self.solvers)})" if self.solvers else "")
            )


@dataclass(frozen=True)
class Deferred:
    """A function named ``"module:function"`` and imported at its first call: a method's run,
    or a reproduction's or a simulation's callables. Declaring them (the kits, ``packgap
    methods``, ``--help``) then imports none of their implementations, and the CLI starts
    without NumPy or a solver (issue 20.5). ``args`` are passed before the caller's arguments,
    as :func:`functools.partial` would, and keywords after them."""

    target: str
    args: tuple[Any, ...] = ()

    def __call__(self, *given: Any, **named: Any) -> Any:
        return self.function()(*self.args, *given, **named)

    def function(self) -> Callable[..., Any]:
        """The named function; an unknown module or name fails with the target named."""
        module, _, name = self.target.partition(":")
        try:
            function: Callable[..., Any] = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            raise PackgapError(f"{self.target!r} cannot be imported: {exc}") from exc
        return function


#: The ``solvers`` of a method that hands an LP or MILP to a solver: every back-end.
LP_SOLVERS = catalogue.NAMES

#: Seconds an exact method may run when the caller names no ``--time-limit``.
DEFAULT_EXACT_TIME_LIMIT = 300.0
