"""PAL's placement policies (sections III-B, III-C) and its baselines (section IV-A1); the
registry of configured policies is :mod:`packgap.heuristics.placement.policies`."""

from __future__ import annotations

from packgap.heuristics.placement.baselines import packed, random_placement
from packgap.heuristics.placement.lv_matrix import Cell, lv_matrix, traverse
from packgap.heuristics.placement.pal import pal
from packgap.heuristics.placement.pm_first import placement_order, pm_first
from packgap.heuristics.placement.pm_score import ClassBins, bin_class, bin_scores
from packgap.heuristics.placement.policies import POLICIES, Policy, PolicySpec, cluster_policy, policy_spec

__all__ = [
    "POLICIES",
    "Cell",
    "ClassBins",
    "Policy",
    "PolicySpec",
    "bin_class",
    "bin_scores",
    "cluster_policy",
    "lv_matrix",
    "packed",
    "pal",
    "placement_order",
    "pm_first",
    "policy_spec",
    "random_placement",
    "traverse",
]
