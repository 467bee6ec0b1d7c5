"""The uniform result of every method, heuristic or exact (DESIGN.md, "Core contracts").

The objective is always recomputed by the family's evaluator from the solution; a
solver's own objective value is never copied here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

#: Denominator floor of the relative gaps, so a zero objective gives a finite gap.
GAP_EPS = 1e-9
#: Absolute tolerance below which an objective "beating" a proven bound is rounding noise.
BOUND_TOL = 1e-6


class Status(StrEnum):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    TIMEOUT = "timeout"
    INFEASIBLE = "infeasible"
    ERROR = "error"


def certified_gap(objective: float | None, bound: float | None) -> float | None:
    """(objective - bound) / max(|objective|, eps) for minimisation; None without both (or
    where the quotient overflows: a bound of -1e299 beside a zero objective proves nothing)."""
    if objective is None or bound is None:
        return None
    return _finite(max(0.0, objective - bound) / max(abs(objective), GAP_EPS))


def primal_gap(objective: float | None, best_known: float | None) -> float | None:
    """(objective - best known objective) / max(|objective|, eps); None without both."""
    if objective is None or best_known is None:
        return None
    return _finite(max(0.0, objective - best_known) / max(abs(objective), GAP_EPS))


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def beats(objective: float, bound: float) -> bool:
    """True when ``objective`` lies below ``bound`` by more than rounding noise."""
    return objective < bound - BOUND_TOL * max(1.0, abs(bound))


@dataclass(frozen=True)
class SolveResult:
    """One method's answer on one instance, in the same shape for every family and method.

    ``wall_s`` is the method's whole wall time; ``build_s`` the part spent building a model
    (0 for heuristics) and ``solve_s`` the rest.

    ``scope`` names the class of solutions in which an ``optimal`` status holds and to which the
    method's own solution belongs ("" = every solution of the family; sharing's branch and bound
    is optimal over "non-preemptive" schedules, Tiresias' answer is "preemptive"). A ``bound`` is
    always valid for every solution of the family. ``compare`` fills ``class_gap`` (against the
    proven optimum of the result's own class) and ``bound_gap`` (against the best bound on the
    instance, valid for every class) beside ``primal_gap``. ``class_bound`` is a lower bound that
    holds for the solutions of ``scope`` only (sharing's ``class-bound``: every non-preemptive
    schedule); ``compare`` holds every result of that class to it and takes it into the class
    gap, never into the bound gap.

    A result holds no non-finite number: an infinite or NaN objective, bound, primal gap or
    metric becomes None on construction and the message says which and why (issue 17), so
    JSON, the store and CSV/Parquet exports always take it and the work is never lost.
    """

    family: str
    method: str
    instance: str
    status: Status
    objective: float | None
    bound: float | None
    wall_s: float
    solver: str
    solver_version: str
    seed: int
    params: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, float | None] = field(default_factory=dict)
    solution: dict[str, Any] | None = None
    primal_gap: float | None = None
    message: str = ""
    build_s: float = 0.0
    solve_s: float = 0.0
    scope: str = ""
    class_gap: float | None = None
    bound_gap: float | None = None
    class_bound: float | None = None

    def __post_init__(self) -> None:
        dropped = []
        for name in ("objective", "bound", "primal_gap", "class_gap", "bound_gap", "class_bound"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                dropped.append(f"{name} {value}")
                object.__setattr__(self, name, None)
        bad_metrics = sorted(k for k, v in self.metrics.items() if v is not None and not math.isfinite(v))
        if bad_metrics:
            dropped += [f"metric {k} {self.metrics[k]}" for k in bad_metrics]
            object.__setattr__(self, "metrics", {k: None if k in bad_metrics else v for k, v in self.metrics.items()})
        if dropped:
            note = f"non-finite {', '.join(dropped)} written as null"
            object.__setattr__(self, "message", f"{self.message}; {note}" if self.message else note)

    @property
    def gap(self) -> float | None:
        """Certified gap against this method's own proven bounds (its solution lies in its
        ``scope``, so its class bound holds for it too)."""
        bounds = [b for b in (self.bound, self.class_bound) if b is not None]
        return certified_gap(self.objective, max(bounds) if bounds else None)

    def with_gaps(
        self,
        best_known: float | None,
        class_optimum: float | None,
        best_bound: float | None,
        class_floor: float | None = None,
    ) -> SolveResult:
        """This result with its primal gap (best objective found), class gap (proven optimum of
        its own class, or else certified against ``class_floor``, the best bound that holds for
        its class) and bound gap (best bound valid for every class)."""
        if class_optimum is not None:
            class_gap = primal_gap(self.objective, class_optimum)
        else:
            class_gap = None if class_floor is None else certified_gap(self.objective, class_floor)
        return replace(
            self,
            primal_gap=primal_gap(self.objective, best_known),
            class_gap=class_gap,
            bound_gap=certified_gap(self.objective, best_bound),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "method": self.method,
            "instance": self.instance,
            "status": str(self.status),
            "objective": self.objective,
            "bound": self.bound,
            "gap": self.gap,
            "primal_gap": self.primal_gap,
            "scope": self.scope,
            "class_gap": self.class_gap,
            "bound_gap": self.bound_gap,
            "class_bound": self.class_bound,
            "wall_s": self.wall_s,
            "build_s": self.build_s,
            "solve_s": self.solve_s,
            "solver": self.solver,
            "solver_version": self.solver_version,
            "seed": self.seed,
            "params": self.params,
            "metrics": self.metrics,
            "message": self.message,
            "solution": self.solution,
        }

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> SolveResult:
        """The inverse of :meth:`to_dict` (``gap`` is derived, so it is not read back)."""
        return cls(
            family=doc["family"],
            method=doc["method"],
            instance=doc["instance"],
            status=Status(doc["status"]),
            objective=doc["objective"],
            bound=doc["bound"],
            wall_s=doc["wall_s"],
            solver=doc["solver"],
            solver_version=doc["solver_version"],
            seed=doc["seed"],
            params=dict(doc["params"]),
            metrics=dict(doc["metrics"]),
            solution=doc["solution"],
            primal_gap=doc["primal_gap"],
            message=doc["message"],
            build_s=doc.get("build_s", 0.0),
            solve_s=doc.get("solve_s", doc["wall_s"]),
            scope=doc.get("scope", ""),
            class_gap=doc.get("class_gap"),
            bound_gap=doc.get("bound_gap"),
            class_bound=doc.get("class_bound"),
        )
