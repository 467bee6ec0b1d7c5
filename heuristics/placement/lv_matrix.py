"""PAL's locality-variability (L x V) matrix and its traversal order (section III-C).

Rows are locality levels (``L_within = 1`` and ``L_across``), columns the class's PM-score
bins V_1 < V_2 < ...; entry (L, V) is the LV-product L x V, the slowdown of eq. 1 for an
allocation with that locality and worst bin. PAL walks the entries from the smallest product
up (Algorithm 2, line 3).

Which entries are walked. The paper's example (bins 0.89, 0.94, 1.06, 2.55, L_across = 1.5)
lists seven entries, (1, 0.89) -> (1, 0.94) -> (1, 1.06) -> (1.5, 1.34) -> (1.5, 1.41) ->
(1.5, 1.59) -> (1.5, 3.88), and leaves out (1, 2.55) although 2.55 < 3.88. The reading that
explains it (``rule="paper"``, the default): once the walk enters the L_across row it stays
there. A within-node entry is tried only if it is cheaper than every across-node entry
(here 0.89, 0.94, 1.06 < 1.335); after that, Algorithm 2's L_across branch (lines 14-18) is
a filtered PM-First pick whose last entry admits every free GPU, so the walk always ends in
that row and never returns to packing. This matches the text: "PAL allows non-packed
allocations only if the first three variability bins cannot provide a packed allocation".
``rule="all"`` walks all 2K entries by product, as the PAL artifact's code does
(blox-sim-inputs PROVENANCE.md, section 5). The paper's "3.88" is 1.5 x 2.59 (1.5 x 2.55 =
3.825): the printed V_4 is rounded differently from its product.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from packgap.errors import UnknownNameError

Traversal = Literal["paper", "all"]
TRAVERSALS = ("paper", "all")


@dataclass(frozen=True)
class Cell:
    """One L x V entry: locality level (``across`` or not, factor ``locality``) and bin."""

    locality: float
    value: float
    across: bool

    @property
    def product(self) -> float:
        return self.locality * self.value


def lv_matrix(values: Sequence[float], l_across: float) -> tuple[tuple[Cell, ...], ...]:
    """The two rows (L_within, L_across) over the sorted distinct bin values."""
    bins = sorted(set(values))
    return (tuple(Cell(1.0, v, False) for v in bins), tuple(Cell(l_across, v, True) for v in bins))


def traverse(values: Sequence[float], l_across: float, rule: Traversal = "paper") -> list[Cell]:
    """The order in which PAL tries the matrix entries (smallest LV-product first; ties put
    the within-node entry first, then the better bin)."""
    if rule not in TRAVERSALS:
        raise UnknownNameError("LV traversal", rule, TRAVERSALS)
    within, across = lv_matrix(values, l_across)
    order = sorted([*within, *across], key=lambda c: (c.product, c.across, c.value))
    if rule == "all":
        return order
    first_across = next(i for i, c in enumerate(order) if c.across)
    return [*order[:first_across], *across]
