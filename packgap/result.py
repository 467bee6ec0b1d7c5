"""The uniform result of every method, heuristic or exact (DESIGN.md, "Core contracts").

The objective is always recomputed by the family's evaluator from the solution; a
solver's own objective value is never copied here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
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
    always valid for every solution of the family.

    The gaps, one vocabulary in every output (issue 33): ``certified_gap`` is (objective - the
    best proven bound valid for this method's class on this instance) / objective, heuristic or
    exact, and ``bound_source`` names that bound (method, bound or optimum, class);
    ``certified_gap_all_classes`` is the same against the best bound valid for every solution
    (it differs only where the class has a proven optimum of its own: sharing's non-preemptive
    policies); ``best_found_gap`` is against the best objective any method found. ``solve`` fills
    them from the method's own bound, ``compare`` from every method's on the instance.
    ``class_bound`` is a lower bound that holds for the solutions of ``scope`` only (sharing's
    ``class-bound``: every non-preemptive schedule); ``compare`` holds every result of that class
    to it and takes it into their certified gap, never into ``certified_gap_all_classes``.

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
    best_found_gap: float | None = None
    message: str = ""
    build_s: float = 0.0
    solve_s: float = 0.0
    scope: str = ""
    certified_gap: float | None = None
    certified_gap_all_classes: float | None = None
    bound_source: str = ""
    class_bound: float | None = None

    def __post_init__(self) -> None:
        dropped = []
        for name in (
            "objective",
            "bound",
            "best_found_gap",
            "certified_gap",
            "certified_gap_all_classes",
            "class_bound",
        ):
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
        """Gap against this method's own bounds alone (a solver's MIP gap; its solution lies in its
        ``scope``, so its class bound holds for it too); the number to report is
        :attr:`certified_gap`, which takes every method's bounds on the instance."""
        bounds = [b for b in (self.bound, self.class_bound) if b is not None]
        return certified_gap(self.objective, max(bounds) if bounds else None)

    def own_proofs(self) -> list[ProvenBound]:
        """What this result proves: its bound (all classes), its class bound and, when optimal, its
        objective (both for its class)."""
        proofs = []
        if self.status == Status.OPTIMAL and self.objective is not None:
            proofs.append(ProvenBound(self.objective, self.method, "optimum", self.scope))
        if self.class_bound is not None:
            proofs.append(ProvenBound(self.class_bound, self.method, "class bound", self.scope))
        if self.bound is not None:
            proofs.append(ProvenBound(self.bound, self.method, "bound", ""))
        return proofs

    def with_gaps(self, best_known: float | None, proofs: Sequence[ProvenBound]) -> SolveResult:
        """This result with its gaps against ``best_known`` (the best objective found on the
        instance) and the ``proofs`` on the instance: those of its own class or of every class
        bound it (:func:`tightest`)."""
        own = tightest(proofs, self.scope)
        every = tightest(proofs, None)
        return replace(
            self,
            best_found_gap=primal_gap(self.objective, best_known),
            certified_gap=certified_gap(self.objective, None if own is None else own.value),
            certified_gap_all_classes=certified_gap(self.objective, None if every is None else every.value),
            bound_source="" if own is None or self.objective is None else own.source,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "method": self.method,
            "instance": self.instance,
            "status": str(self.status),
            "objective": self.objective,
            "bound": self.bound,
            "scope": self.scope,
            "certified_gap": self.certified_gap,
            "bound_source": self.bound_source,
            "certified_gap_all_classes": self.certified_gap_all_classes,
            "best_found_gap": self.best_found_gap,
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
        """The inverse of :meth:`to_dict`; documents written before issue 33 (``primal_gap``,
        ``class_gap``, ``bound_gap``) read as their successors (the class gap, where there was
        one, was the certified gap of the result's class)."""
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
            best_found_gap=doc.get("best_found_gap", doc.get("primal_gap")),
            message=doc["message"],
            build_s=doc.get("build_s", 0.0),
            solve_s=doc.get("solve_s", doc["wall_s"]),
            scope=doc.get("scope", ""),
            certified_gap=doc["certified_gap"] if "certified_gap" in doc else _old_certified_gap(doc),
            certified_gap_all_classes=doc.get("certified_gap_all_classes", doc.get("bound_gap")),
            bound_source=doc.get("bound_source", ""),
            class_bound=doc.get("class_bound"),
        )


def _old_certified_gap(doc: Mapping[str, Any]) -> float | None:
    class_gap = doc.get("class_gap")
    return class_gap if class_gap is not None else doc.get("bound_gap")


@dataclass(frozen=True)
class ProvenBound:
    """A lower bound proven on one instance: a method's ``bound`` (``scope`` "": valid for every
    solution) or its proven ``optimum``, valid for the solutions of its ``scope``."""

    value: float
    method: str
    kind: str
    scope: str

    @property
    def source(self) -> str:
        """What ``bound_source`` says: e.g. ``exact-bb optimum (non-preemptive)``."""
        return f"{self.method} {self.kind} ({self.scope or 'all classes'})"


def tightest(proofs: Sequence[ProvenBound], scope: str | None) -> ProvenBound | None:
    """The highest of ``proofs`` valid for the solutions of class ``scope`` (those of every
    class and those of ``scope`` itself; None: only those of every class), or None."""
    valid = [p for p in proofs if p.scope == "" or p.scope == scope]
    return max(valid, key=lambda p: p.value, default=None)
