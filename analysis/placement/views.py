"""``packgap instances show --bins``: PAL's per-class K-Means bins of PM-scores, the silhouette
score of every K tried, the chosen K and the outlier GPUs (PAL section III-B), of a placement
round or of a cluster trace's cluster (what PAL bins in a run)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any


def placement_bins(instance: Any) -> list[dict[str, Any]]:
    from packgap.heuristics.placement import bin_scores
    from packgap.placement.trace import ClusterTrace

    if isinstance(instance, ClusterTrace):
        instance = instance.cluster
    return [
        {**asdict(b), "silhouettes": {str(k): v for k, v in b.silhouettes.items()}}
        for b in bin_scores(instance).values()
    ]
