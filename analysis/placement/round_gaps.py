"""Per-round optimality gaps of a placement policy along a simulated trace.

The simulator hands every round instance and the policy's placement to an observer; each
kept round is then solved by an exact model and the policy's evaluated objective is
compared with the exact optimum (primal gap) and the proven bound (certified gap).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from packgap.analysis.placement.methods import BY_NAME
from packgap.analysis.run import solve
from packgap.placement import FAMILY, PlacementInstance, PlacementSolution
from packgap.placement.simulator import Cluster, Place, Scheduler, SimJob, SimResult, simulate
from packgap.result import Status, certified_gap, primal_gap
from packgap.solvers.outcome import SolveOptions


@dataclass(frozen=True)
class RoundGap:
    round: str
    jobs: int
    objective: float
    exact: float | None
    bound: float | None
    status: Status

    @property
    def primal_gap(self) -> float | None:
        return primal_gap(self.objective, self.exact)

    @property
    def certified_gap(self) -> float | None:
        return certified_gap(self.objective, self.bound)


def round_gaps(
    cluster: Cluster,
    jobs: Sequence[SimJob],
    scheduler: Scheduler,
    place: Place,
    *,
    sticky: bool,
    options: SolveOptions,
    round_length: float = 300.0,
    every: int = 1,
    exact: str = "exact-blocks",
) -> tuple[SimResult, list[RoundGap]]:
    """Simulate, then solve every ``every``-th round that placed a job exactly."""
    seen: list[tuple[PlacementInstance, PlacementSolution]] = []
    result = simulate(
        cluster,
        jobs,
        scheduler,
        place,
        sticky=sticky,
        round_length=round_length,
        observe=lambda inst, sol: seen.append((inst, sol)),
    )
    return result, exact_gaps(seen, options, every=every, exact=exact)


def exact_gaps(
    rounds: Sequence[tuple[PlacementInstance, PlacementSolution]],
    options: SolveOptions,
    *,
    every: int = 1,
    exact: str = "exact-blocks",
    params: Mapping[str, Any] | None = None,
    on_done: Callable[[], None] | None = None,
) -> list[RoundGap]:
    """The policy's evaluated cost against the exact optimum (method ``exact`` with ``params``),
    every ``every``-th round; ``on_done`` is called after each exact solve (progress)."""
    gaps = []
    for instance, solution in rounds[::every]:
        heuristic = FAMILY.evaluate(instance, solution).objective
        best = solve(FAMILY, instance, BY_NAME[exact], options=options, params=params)
        gaps.append(RoundGap(instance.name, len(instance.jobs), heuristic, best.objective, best.bound, best.status))
        if on_done is not None:
            on_done()
    return gaps


def gaps_document(gaps: Sequence[RoundGap]) -> tuple[list[dict[str, object]], dict[str, float | None]]:
    """Per-round rows and the summary metrics (rounds solved and proven optimal, mean and
    max primal gap) of a run's round gaps."""
    rows: list[dict[str, object]] = [
        {
            "round": g.round,
            "jobs": g.jobs,
            "objective": g.objective,
            "exact": g.exact,
            "bound": g.bound,
            "status": str(g.status),
            "primal_gap": g.primal_gap,
            "certified_gap": g.certified_gap,
        }
        for g in gaps
    ]
    primal = [g.primal_gap for g in gaps if g.primal_gap is not None]
    summary: dict[str, float | None] = {
        "rounds_solved": float(len(gaps)),
        "rounds_optimal": float(sum(g.status == Status.OPTIMAL for g in gaps)),
        "mean_round_gap": sum(primal) / len(primal) if primal else None,
        "max_round_gap": max(primal, default=None),
    }
    return rows, summary
