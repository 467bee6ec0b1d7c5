"""The one call shape of every method, heuristic or exact (STYLE.md: scikit-learn, pymoo).

A method receives an instance and a :class:`RunContext` and returns a :class:`MethodOutput`:
a solution plus what only the method knows (status, proven bound, solver name). It never
reports an objective: the driver validates the solution and the family's evaluator scores it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import packgap
from packgap.errors import PackgapError
from packgap.result import Status
from solvers.outcome import SolveOptions


@dataclass(frozen=True)
class RunContext:
    options: SolveOptions
    params: Mapping[str, Any]


@dataclass(frozen=True)
class MethodOutput:
    solution: Any | None
    status: Status
    bound: float | None = None
    solver: str = "packgap"
    solver_version: str = packgap.__version__
    message: str = ""


@dataclass(frozen=True)
class Method:
    """A registered method: ``defaults`` declares every parameter it accepts."""

    family: str
    name: str
    description: str
    run: Callable[[Any, RunContext], MethodOutput]
    exact: bool = False
    defaults: Mapping[str, Any] = field(default_factory=dict)

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
