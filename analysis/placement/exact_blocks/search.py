"""The dual phase of the exact block method: Lagrangian bound plus repaired placements.

Starting from a heuristic placement (``pal+blocks``, so the answer is never worse than PAL;
see ``run_exact_blocks``) on the GPUs a better placement may use
(``packgap.models.placement.screening``), the subgradient ascent of
``packgap.analysis.placement.exact_blocks.ascent`` raises the bound while, whenever its best
prices change (every ``probe_every`` steps of ``maximise``),
``packgap.analysis.placement.exact_blocks.repair`` turns them into a placement; the evaluator scores
it and the best one is kept and becomes the ascent's target. On generated rounds this alone
certifies gaps of 0.03-0.1 % (256 to 27,648 GPUs). :func:`settle` then reads the pruned
block-path MILP's outcome (``packgap.models.placement.pruning``, ``packgap.models.placement.block_paths``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.analysis.placement.exact_blocks.ascent import maximise
from packgap.analysis.placement.exact_blocks.repair import repair
from packgap.models.placement.block_bound import DualPoint, RoundDual, round_dual
from packgap.models.placement.block_paths import BlockModel, build_blocks, extract
from packgap.models.placement.pruning import kept_arcs
from packgap.models.placement.screening import screen
from packgap.placement import FAMILY, PlacementInstance, PlacementSolution
from packgap.result import Status
from packgap.solvers.matrix import MipSolution
from packgap.solvers.outcome import status_from_gap

#: Relative gap under which the incumbent counts as proven optimal.
GAP_TOL = 1e-9
#: Default cap on the ascent's steps (per call): a work limit, the same on every machine.
STEPS = 5000


@dataclass(frozen=True)
class Search:
    """Best placement found, its evaluated objective, the best bound and its prices."""

    rd: RoundDual
    solution: PlacementSolution
    objective: float
    bound: float
    point: DualPoint
    iterations: int
    out_of_time: bool
    improvements: int
    factor: float

    def within(self, gap: float) -> bool:
        """True when the certified gap is at most ``gap`` (or closed)."""
        return self.objective - self.bound <= max(GAP_TOL, gap) * abs(self.objective)


def dual_search(
    instance: PlacementInstance,
    start: PlacementSolution,
    seconds: float | None,
    *,
    gap: float = 0.0,
    steps: int = STEPS,
) -> Search:
    """Lagrangian ascent from placement ``start``, probing repairs, for at most ``seconds`` or
    ``steps`` steps or until the certified gap is at most ``gap``, on the GPUs a placement
    better than ``start`` may use (``packgap.models.placement.screening``)."""
    objective = FAMILY.evaluate(instance, start).objective
    return _ascend(round_dual(screen(instance, objective)), (objective, start), None, (seconds, steps), gap, None)


def resume(found: Search, seconds: float | None, *, gap: float = 0.0, steps: int = STEPS) -> Search:
    """Go on with the ascent of ``found`` from its best prices, step and incumbent."""
    return _ascend(found.rd, (found.objective, found.solution), found.point, (seconds, steps), gap, found)


def _ascend(
    rd: RoundDual,
    incumbent: tuple[float, PlacementSolution],
    point: DualPoint | None,
    limits: tuple[float | None, int],
    gap: float,
    before: Search | None,
) -> Search:
    instance = rd.instance
    best = [incumbent]

    def probe(prices: DualPoint) -> float:
        solution = repair(rd, prices.pi, prices.mu)
        FAMILY.validate(instance, solution)
        objective = FAMILY.evaluate(instance, solution).objective
        if objective < best[-1][0]:
            best.append((objective, solution))
        return best[-1][0]

    start = None if point is None else (point.pi, point.mu)
    factor = 1.0 if before is None else before.factor
    seconds, steps = limits
    result = maximise(rd, incumbent[0], seconds, probe=probe, gap=gap, iterations=steps, start=start, factor=factor)
    objective, solution = best[-1]
    bound = min(max(result.best.value, -np.inf if before is None else before.bound), objective)
    steps = result.iterations + (0 if before is None else before.iterations)
    kept = len(best) - 1 + (0 if before is None else before.improvements)
    return Search(rd, solution, objective, bound, result.best, steps, result.out_of_time, kept, result.factor)


def pruned_model(found: Search, mip_gap: float, max_columns: int) -> BlockModel | None:
    """The block-path MILP restricted to what a placement better than ``found``'s can use
    (``packgap.models.placement.pruning``); None when the gap is already within ``mip_gap`` (or
    closed) or the model would have more than ``max_columns`` columns."""
    if found.within(mip_gap):
        return None
    kept = kept_arcs(found.rd, found.point.pi, found.point.mu, found.bound, found.objective)
    if kept.columns() > max_columns:
        return None
    return build_blocks(found.rd.instance, kept)


def settle(
    found: Search, model: BlockModel | None, mip: MipSolution | None, starved: bool
) -> tuple[PlacementSolution, Status, float, str]:
    """Placement, status, bound and a note from the dual phase and the pruned MILP's outcome.

    The pruned model holds every placement better than the incumbent, so its optimum (or its
    infeasibility) proves the better of the two optimal, and min(incumbent, its bound) is a
    valid bound."""
    solution, objective, bound = found.solution, found.objective, found.bound
    note = f"dual on {found.rd.grid.levels} GPUs: {found.iterations} steps, {found.improvements} better repairs"
    if mip is None or model is None:
        status = status_from_gap(objective, bound, GAP_TOL)
        if status != Status.OPTIMAL and (starved or found.out_of_time):
            status = Status.TIMEOUT
        return solution, status, bound, note
    outcome = mip.outcome
    if mip.values is not None:
        candidate = extract(model, mip.values)
        value = FAMILY.evaluate(found.rd.instance, candidate).objective
        if value < objective:
            solution, objective = candidate, value
    note += f"; pruned MILP of {model.mip.num_col} columns: {outcome.message}"
    if outcome.status == Status.INFEASIBLE:
        return solution, Status.OPTIMAL, objective, note
    if outcome.bound is not None:
        bound = max(bound, min(objective, outcome.bound))
    if outcome.status == Status.OPTIMAL:
        return solution, Status.OPTIMAL, bound, note
    return solution, Status.TIMEOUT if outcome.status == Status.TIMEOUT else Status.FEASIBLE, bound, note
