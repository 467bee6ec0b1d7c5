"""PAL's placement policies (sections III-B, III-C) and its baselines (section IV-A1).

Every policy is a function ``(round instance, seed) -> PlacementSolution``; ``POLICIES``
records each one's name and whether the simulator keeps its jobs' GPUs across rounds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from heuristics.placement.baselines import packed, random_placement
from heuristics.placement.lv_matrix import Cell, lv_matrix, traverse
from heuristics.placement.pal import pal
from heuristics.placement.pm_first import placement_order, pm_first
from heuristics.placement.pm_score import ClassBins, bin_class, bin_scores
from packgap.errors import PackgapError, UnknownNameError
from packgap.placement import PlacementInstance, PlacementSolution
from packgap.placement.simulator import Cluster


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


def cluster_policy(name: str, cluster: Cluster, **params: Any) -> Policy:
    """Policy ``name`` for a simulated cluster: PM-First and PAL bin the cluster's PM-scores
    once (profiles are static, section IV-C) and take ``params`` (``tie_break``,
    ``traversal``, ``two_sided``); the baselines take none."""
    if name not in POLICIES:
        raise UnknownNameError("placement policy", name, list(POLICIES))
    policy = POLICIES[name]
    if name not in ("pm-first", "pal"):
        if params:
            raise PackgapError(f"placement policy {name!r} takes no parameters, got {sorted(params)}")
        return policy
    bins = bin_scores(cluster, two_sided=params.pop("two_sided", True))
    place = pal if name == "pal" else pm_first
    return Policy(name, functools.partial(place, bins=bins, **params), policy.sticky)


__all__ = [
    "POLICIES",
    "Cell",
    "ClassBins",
    "Policy",
    "bin_class",
    "bin_scores",
    "cluster_policy",
    "lv_matrix",
    "packed",
    "pal",
    "placement_order",
    "pm_first",
    "random_placement",
    "traverse",
]
