"""The uniform result of every method, heuristic or exact (DESIGN.md, "Core contracts").

The objective is always recomputed by the family's evaluator from the solution; a
solver's own objective value is never copied here.
"""

from __future__ import annotations

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
    """(objective - bound) / max(|objective|, eps) for minimisation; None without both."""
    if objective is None or bound is None:
        return None
    return max(0.0, objective - bound) / max(abs(objective), GAP_EPS)


def primal_gap(objective: float | None, best_known: float | None) -> float | None:
    """(objective - best known objective) / max(|objective|, eps); None without both."""
    if objective is None or best_known is None:
        return None
    return max(0.0, objective - best_known) / max(abs(objective), GAP_EPS)


def beats(objective: float, bound: float) -> bool:
    """True when ``objective`` lies below ``bound`` by more than rounding noise."""
    return objective < bound - BOUND_TOL * max(1.0, abs(bound))


@dataclass(frozen=True)
class SolveResult:
    """One method's answer on one instance, in the same shape for every family and method.

    ``wall_s`` is the method's whole wall time; ``build_s`` the part spent building a model
    (0 for heuristics) and ``solve_s`` the rest.
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
    metrics: dict[str, float] = field(default_factory=dict)
    solution: dict[str, Any] | None = None
    primal_gap: float | None = None
    message: str = ""
    build_s: float = 0.0
    solve_s: float = 0.0

    @property
    def gap(self) -> float | None:
        """Certified gap against this method's own proven bound."""
        return certified_gap(self.objective, self.bound)

    def with_primal_gap(self, best_known: float | None) -> SolveResult:
        return replace(self, primal_gap=primal_gap(self.objective, best_known))

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
        )
