"""Options every back-end accepts and the outcome every back-end returns."""

from __future__ import annotations

import math
from dataclasses import dataclass

from packgap.errors import PackgapError
from packgap.fields import check_seed, check_threads, check_time_limit
from packgap.result import Status
from packgap.solvers import catalogue

#: Least time (s) worth handing a solver; with less left the model is not solved at all.
MIN_SOLVE_S = 0.05


@dataclass(frozen=True, kw_only=True)
class SolveOptions:
    """Solver settings, explicit so that every result row can record them.

    ``threads`` defaults to 1 because single-threaded CP-SAT and HiGHS are deterministic for
    a given seed; raise it for speed when byte-identical reruns do not matter.

    A wall-clock ``time_limit`` that binds makes the result depend on the machine's load; the
    work limits stop the search at the same point on every run: ``node_limit`` is HiGHS's
    branch-and-bound node limit (``mip_max_nodes``), ``deterministic_time`` CP-SAT's
    ``max_deterministic_time`` (its own work units, roughly seconds), ``iteration_limit`` HiGHS's
    simplex and interior-point iteration limits for an LP. Reproductions set these
    and keep ``time_limit`` only as a backstop far above them. Every back-end takes the node
    and iteration limits under its own names (SCIP: ``limits/nodes``, ``lp/iterlim``).

    ``solver`` is the LP / MILP back-end of the exact methods that hand a model to one
    (:mod:`packgap.solvers.catalogue`); CP-SAT models ignore it.
    """

    time_limit: float | None = None
    mip_gap: float = 0.0
    threads: int = 1
    seed: int = 0
    node_limit: int | None = None
    deterministic_time: float | None = None
    iteration_limit: int | None = None
    solver: str = catalogue.DEFAULT

    def __post_init__(self) -> None:
        catalogue.check_name(self.solver)
        check_time_limit(self.time_limit)
        check_threads(self.threads)
        check_seed(self.seed)
        if not 0 <= self.mip_gap < 1:
            raise PackgapError(f"mip_gap must lie in [0, 1), got {self.mip_gap}")
        if self.node_limit is not None and self.node_limit < 1:
            raise PackgapError(f"node_limit must be >= 1, got {self.node_limit}")
        if self.iteration_limit is not None and self.iteration_limit < 1:
            raise PackgapError(f"iteration_limit must be >= 1, got {self.iteration_limit}")
        if self.deterministic_time is not None and not (
            self.deterministic_time > 0 and math.isfinite(self.deterministic_time)
        ):
            raise PackgapError(f"deterministic_time must be a positive number, got {self.deterministic_time}")


@dataclass(frozen=True)
class SolverOutcome:
    """What a back-end reports; ``objective`` is the solver's own value, for logs only."""

    status: Status
    objective: float | None
    bound: float | None
    wall_s: float
    solver: str
    version: str
    message: str = ""

    @property
    def has_solution(self) -> bool:
        return self.objective is not None


def status_from_gap(objective: float | None, bound: float | None, rel_tol: float = 1e-9) -> Status:
    """OPTIMAL when the bound meets the incumbent (relative tolerance), else FEASIBLE."""
    if objective is None:
        return Status.ERROR
    if bound is not None and objective - bound <= rel_tol * max(1.0, abs(objective)):
        return Status.OPTIMAL
    return Status.FEASIBLE
