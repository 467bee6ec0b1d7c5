"""Family-specific views for ``packgap instances show``: the exact models' inputs, auditable.

* ``--groups`` (packing): every feasible group (each job alone, each equal-demand pair) with,
  per GPU type, the interleaved iteration time, each job's standalone iteration time and each
  job's completion offset from the group's start (CUCKOO section 3.2, the exact timeline).
* ``--bins`` (placement rounds and cluster traces): PAL's per-class K-Means bins of PM-scores, the silhouette score of
  every K tried, the chosen K and the outlier GPUs (PAL section III-B).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from heuristics.placement import bin_scores
from packgap.errors import PackgapError
from packgap.packing import PackingInstance
from packgap.packing.timeline import candidate_groups
from packgap.placement import PlacementInstance
from packgap.placement.trace import ClusterTrace


def packing_groups(instance: Any) -> list[dict[str, Any]]:
    if not isinstance(instance, PackingInstance):
        raise PackgapError("--groups applies to packing instances")
    return [
        {
            "jobs": list(jobs),
            "per_gpu_type": [
                {
                    "gpu_type": t.gpu_type,
                    "interleaved_iteration_ms": t.interleaved_ms,
                    "standalone_iteration_ms": list(t.standalone_ms),
                    "completion_offset_s": list(t.completion),
                    "duration_s": t.duration,
                }
                for t in timelines
            ],
        }
        for jobs, timelines in candidate_groups(instance)
    ]


def placement_bins(instance: Any) -> list[dict[str, Any]]:
    """Bins of a placement round, or of a cluster trace's cluster (what PAL bins in a run)."""
    if isinstance(instance, ClusterTrace):
        instance = instance.cluster
    elif not isinstance(instance, PlacementInstance):
        raise PackgapError("--bins applies to placement instances and cluster traces")
    return [
        {**asdict(b), "silhouettes": {str(k): v for k, v in b.silhouettes.items()}}
        for b in bin_scores(instance).values()
    ]
