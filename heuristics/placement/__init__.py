"""PAL's placement policies (sections III-B, III-C) and its baselines (section IV-A1).

Every policy is a function ``(round instance, seed) -> PlacementSolution``; ``POLICIES``
records each one's name and whether the simulator keeps its jobs' GPUs across rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from heuristics.placement.baselines import packed, random_placement
from heuristics.placement.lv_matrix import Cell, lv_matrix, traverse
from heuristics.placement.pal import pal
from heuristics.placement.pm_first import placement_order, pm_first
from heuristics.placement.pm_score import ClassBins, bin_class, bin_scores
from packgap.placement import PlacementInstance, PlacementSolution


@dataclass(frozen=True)
class Policy:
    """A placement policy; ``sticky`` jobs keep their GPUs until they finish (section IV-A1)."""

    name: str
    place: Callable[[PlacementInstance, int], PlacementSolution]
    sticky: bool


POLICIES: dict[str, Policy] = {
    p.name: p
    for p in (
        Policy("pm-first", pm_first, False),
        Policy("pal", pal, False),
        Policy("packed-sticky", packed, True),
        Policy("packed-non-sticky", packed, False),
        Policy("random-sticky", random_placement, True),
        Policy("random-non-sticky", random_placement, False),
    )
}

__all__ = [
    "POLICIES",
    "Cell",
    "ClassBins",
    "Policy",
    "bin_class",
    "bin_scores",
    "lv_matrix",
    "packed",
    "pal",
    "placement_order",
    "pm_first",
    "random_placement",
    "traverse",
]
