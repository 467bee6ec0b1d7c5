"""The one registry of PAL's placement policies and its baselines (PAL sections III-B, III-C, IV-A1).

Each :class:`PolicySpec` names a heuristic ``(round instance, seed, *, bins, **params) ->
PlacementSolution``, whether the simulator keeps its jobs' GPUs across rounds (``sticky``),
whether it places by binned PM-scores, and the PAL artifact's own readings (blox replay,
:mod:`packgap.heuristics.placement.artifact`). Its parameters and their defaults are read from the
heuristic's signature, so the methods of ``packgap.analysis.placement`` and the simulator's policies
cannot drift apart; binned policies add ``two_sided_outliers`` (3-sigma outliers on both
sides, the paper's reading) and ``artifact_bins`` (the artifact's K-Means binning).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from packgap.errors import PackgapError, UnknownNameError
from packgap.heuristics.placement.artifact import artifact_bins
from packgap.heuristics.placement.baselines import packed, random_placement
from packgap.heuristics.placement.pal import pal
from packgap.heuristics.placement.pm_first import pm_first
from packgap.heuristics.placement.pm_score import ClassBins, bin_scores
from packgap.placement import PlacementInstance, PlacementSolution
from packgap.placement.simulator import Cluster

#: Parameters of every binned policy, beside those of its heuristic's signature.
BINNING_DEFAULTS: Mapping[str, Any] = {"two_sided_outliers": True, "artifact_bins": False}


@dataclass(frozen=True)
class Policy:
    """A configured policy: ``place(round, seed)``; ``sticky`` jobs keep their GPUs until they end;
    ``repeats``: it places a round as it placed an equal one (no seed, no remaining work read)."""

    name: str
    place: Callable[[PlacementInstance, int], PlacementSolution]
    sticky: bool
    repeats: bool = False


@dataclass(frozen=True)
class PolicySpec:
    name: str
    description: str
    heuristic: Callable[..., PlacementSolution]
    sticky: bool
    binned: bool
    artifact: Mapping[str, Any] = field(default_factory=dict)
    seeded: bool = False

    @property
    def defaults(self) -> dict[str, Any]:
        """Keyword-only parameters of the heuristic with their defaults (bins excluded)."""
        own = {
            p.name: p.default
            for p in inspect.signature(self.heuristic).parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name != "bins"
        }
        return {**own, **BINNING_DEFAULTS} if self.binned else own

    def configure(self, scores: PlacementInstance | Cluster, **params: Any) -> Policy:
        """The policy with ``params`` (unknown names fail), binning ``scores`` once."""
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            raise PackgapError(f"placement policy {self.name!r} has no parameter {', '.join(unknown)}")
        if not self.binned:
            return Policy(self.name, self.heuristic, self.sticky, repeats=not self.seeded)
        given = {**self.defaults, **params}
        bins = policy_bins(scores, two_sided=given.pop("two_sided_outliers"), artifact=given.pop("artifact_bins"))
        place = functools.partial(self.heuristic, bins=bins, **given)
        return Policy(self.name, place, self.sticky, repeats=not self.seeded)


def policy_bins(scores: PlacementInstance | Cluster, *, two_sided: bool, artifact: bool) -> dict[str, ClassBins]:
    """PM-score bins of every class: the paper's reading or the artifact's."""
    if artifact:
        return {c: artifact_bins(c, scores.pm_scores[c]) for c in scores.classes}
    return bin_scores(scores, two_sided=two_sided)


#: The artifact's readings of PM-First and PAL (blox-sim-inputs PROVENANCE.md, section 5).
_ARTIFACT_PM_FIRST = {"artifact_bins": True, "tie_break": "node-fit"}
_ARTIFACT_PAL = {**_ARTIFACT_PM_FIRST, "traversal": "all", "node_order": "most-eligible"}

POLICIES: dict[str, PolicySpec] = {
    p.name: p
    for p in (
        PolicySpec(
            "pm-first",
            "PAL PM-First: class-sorted queue prefix, best binned PM-scores first (Alg. 1, Fig. 4)",
            pm_first,
            sticky=False,
            binned=True,
            artifact=_ARTIFACT_PM_FIRST,
        ),
        PolicySpec(
            "pal",
            "PAL: L x V matrix traversal for 2..node-size GPU jobs, PM-First otherwise (Alg. 2)",
            pal,
            sticky=False,
            binned=True,
            artifact=_ARTIFACT_PAL,
        ),
        PolicySpec(
            "packed-sticky",
            "Tiresias: packed placement (fewest nodes), sticky across rounds",
            packed,
            sticky=True,
            binned=False,
        ),
        PolicySpec(
            "packed-non-sticky",
            "Gandiva: packed placement (fewest nodes), re-placed every round",
            packed,
            sticky=False,
            binned=False,
        ),
        PolicySpec(
            "random-sticky",
            "random subset of the free GPUs (seeded), sticky across rounds",
            random_placement,
            sticky=True,
            binned=False,
            seeded=True,
        ),
        PolicySpec(
            "random-non-sticky",
            "random subset of the free GPUs (seeded), re-placed every round",
            random_placement,
            sticky=False,
            binned=False,
            seeded=True,
        ),
    )
}


def policy_spec(name: str) -> PolicySpec:
    if name not in POLICIES:
        raise UnknownNameError("placement policy", name, list(POLICIES))
    return POLICIES[name]


def cluster_policy(name: str, cluster: PlacementInstance | Cluster, *, artifact: bool = False, **params: Any) -> Policy:
    """Policy ``name`` for a simulated cluster, binned once (profiles are static, section IV-C);
    ``artifact`` applies the PAL artifact's readings (blox replay) under ``params``."""
    spec = policy_spec(name)
    readings = dict(spec.artifact) if artifact else {}
    return spec.configure(cluster, **{**readings, **params})
