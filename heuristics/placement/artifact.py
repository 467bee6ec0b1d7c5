"""The PAL artifact's own binning (hal-uw/blox-pal @ 8a590708), for replaying its simulator
(blox-sim-inputs PROVENANCE.md, section 5), where it differs from this toolkit's
paper-faithful default: outliers only above mean + 3 sample standard deviations; the
silhouette search stops after K = 2 (its return sits inside the loop), so K-Means runs with
2 + (number of outliers) clusters on *all* values, outliers included; a GPU's bin value is
its cluster centre divided by the median of the centres. The note states the result equals
the best 1-D least-squares split, which :func:`~packgap.heuristics.placement.pm_score.kmeans_1d`
computes.

The artifact's other readings (PM-First ties ``tie_break="node-fit"``; PAL walks every L x V
entry, ``traversal="all"``, nodes with the most eligible GPUs first,
``node_order="most-eligible"``, whose order among equal nodes is CPU-dependent, see the note)
are parameters of the policies, listed in :data:`packgap.heuristics.placement.policies.POLICIES`.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from packgap.heuristics.placement.pm_score import ClassBins, kmeans_1d, outlier_mask


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
