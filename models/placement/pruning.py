"""Reduced-cost pruning of the block-path model (issue 11, item 2): drop every walk arc and
within-node subset that no placement cheaper than the incumbent can use.

At Lagrangian prices ``(pi, mu)`` (``packgap.models.placement.block_bound``) every placement's
objective is at least ``L(pi, mu)`` plus, for each type, its walk's reduced cost above the
type's cheapest walk, plus each chosen subset's positive reduced cost (and each negative one
left out); all these terms are >= 0. So a placement cheaper than ``upper`` uses no arc whose
cheapest walk through it exceeds the type's cheapest by more than ``slack = upper - L``, and
no subset of reduced cost above ``slack`` (Nemhauser and Wolsey 1988, reduced-cost fixing).
The pruned model keeps every placement better than ``upper``: its optimum, or the incumbent
when it has none, is the round's optimum, and min(``upper``, its bound) is a valid bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.models.placement.block_bound import RoundDual, subset_reduced_costs
from packgap.models.placement.walks import take_slack

#: Relative tolerance added to ``slack`` so float error never drops a needed arc.
SLACK_TOL = 1e-7


@dataclass(frozen=True)
class Kept:
    """Per type, ``take[t][v, r]``: the take from state ``r`` of the ``v``-th GPU of the type's
    order survives; ``subsets[i]``: subset ``i`` survives (the order of ``RoundDual``).
    Skips are never pruned: a walk may always pass a GPU by."""

    take: tuple[np.ndarray, ...]
    subsets: np.ndarray

    def columns(self) -> int:
        """Columns of the pruned block-path model: surviving takes and subsets, and one skip
        per state at each GPU a type may still take."""
        skips = sum(int(a.any(axis=1).sum()) * a.shape[1] for a in self.take)
        return sum(int(a.sum()) for a in self.take) + skips + int(self.subsets.sum())

    def share(self) -> float:
        """Share of the takes that survive."""
        return sum(int(a.sum()) for a in self.take) / max(1, sum(a.size for a in self.take))


def kept_arcs(rd: RoundDual, pi: np.ndarray, mu: np.ndarray, lower: float, upper: float) -> Kept:
    """The takes and subsets a placement of objective < ``upper`` may use, given that
    ``lower`` = L(``pi``, ``mu``)."""
    grid = rd.grid
    slack = upper - lower + SLACK_TOL * max(1.0, abs(upper))
    take_ok = take_slack(grid, pi, mu) <= slack
    spans = zip(grid.offset[:-1], grid.offset[1:], strict=True)
    rc = subset_reduced_costs(rd, pi, mu)
    return Kept(tuple(take_ok[:, a:b] for a, b in spans), np.maximum(rc, 0.0) <= slack)
