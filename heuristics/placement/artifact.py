"""The PAL artifact's own readings of PM-First and PAL (hal-uw/blox-pal @ 8a590708), for
replaying its simulator (blox-sim-inputs PROVENANCE.md, section 5), where they differ from
this toolkit's paper-faithful defaults:

* binning: outliers only above mean + 3 sample standard deviations; the silhouette search
  stops after K = 2 (its return sits inside the loop), so K-Means runs with 2 + (number of
  outliers) clusters on *all* values, outliers included; a GPU's bin value is its cluster
  centre divided by the median of the centres. The note states the result equals the best
  1-D least-squares split, which :func:`~heuristics.placement.pm_score.kmeans_1d` computes;
* PM-First ties: ``tie_break="node-fit"``;
* PAL: every L x V entry is walked (``traversal="all"``), nodes with the most eligible
  GPUs first (``node_order="most-eligible"``; the artifact's order among equal nodes is
  CPU-dependent, see the note).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import numpy.typing as npt

from heuristics.placement import POLICIES, Policy, pal, pm_first
from heuristics.placement.pm_score import ClassBins, kmeans_1d, outlier_mask
from packgap.placement.simulator import Cluster


def artifact_bins(job_class: str, scores: npt.ArrayLike) -> ClassBins:
    values = np.asarray(scores, dtype=float)
    outliers = np.flatnonzero(outlier_mask(values, two_sided=False))
    k = min(2 + len(outliers), len(np.unique(values)))
    order = np.argsort(values, kind="stable")
    starts = [*kmeans_1d(values[order], k)[k - 1].tolist(), len(values)]
    centres = [float(values[order[s:e]].mean()) for s, e in itertools.pairwise(starts)]
    median = float(np.median(centres))
    binned = np.empty(len(values))
    for (s, e), centre in zip(itertools.pairwise(starts), centres, strict=True):
        binned[order[s:e]] = centre / median
    return ClassBins(
        job_class,
        k,
        {},
        tuple(c / median for c in centres),
        tuple(int(g) for g in outliers),
        tuple(float(v) for v in binned),
    )


def artifact_policy(name: str, cluster: Cluster) -> Policy:
    """Policy ``name`` configured as in the artifact (baselines are already identical)."""
    if name not in ("pm-first", "pal"):
        return POLICIES[name]
    bins = {c: artifact_bins(c, cluster.pm_scores[c]) for c in cluster.classes}
    if name == "pm-first":
        return Policy(name, functools.partial(pm_first, bins=bins, tie_break="node-fit"), False)
    place = functools.partial(pal, bins=bins, traversal="all", tie_break="node-fit", node_order="most-eligible")
    return Policy(name, place, False)
