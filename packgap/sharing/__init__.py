"""Family ``sharing``: SJF-BSBF's online GPU sharing with gradient accumulation (Luo et al.).

Jobs arrive over time, ask for a gang of GPUs and may share GPUs (at most C = 2 jobs per
GPU, eq. 9) at an interference cost xi (eqs. 5-6), shrinking their per-GPU sub-batch by
gradient accumulation (eq. 7) so that co-located workers fit in GPU memory.
"""

from __future__ import annotations

from typing import Any

from packgap.family import Family
from packgap.sharing import instance, solution
from packgap.sharing.evaluate import evaluate, validate
from packgap.sharing.instance import Cluster, Interference, Job, ModelProfile, SharingInstance
from packgap.sharing.perf import Perf
from packgap.sharing.solution import JobSchedule, Segment, SharingSolution


def _summary(inst: SharingInstance) -> dict[str, Any]:
    return {
        "name": inst.name,
        "source": inst.source,
        "jobs": len(inst.jobs),
        "large_jobs": sum(1 for j in inst.jobs if j.large),
        "gpus": inst.cluster.gpus,
        "nodes": inst.cluster.nodes,
        "models": sorted(inst.models),
        "xi_default": inst.interference.default,
        "xi_pairs": len(inst.interference.pairs),
        "xi_source": inst.interference.source,
        "last_arrival_s": max((j.arrival for j in inst.jobs), default=0.0),
    }


FAMILY: Family[SharingInstance, SharingSolution] = Family.of(
    "sharing",
    "SJF-BSBF GPU sharing: online gang jobs, <= C jobs per GPU, gradient accumulation",
    instance,
    solution,
    validate=validate,
    evaluate=evaluate,
    summary=_summary,
)

__all__ = [
    "FAMILY",
    "Cluster",
    "Interference",
    "Job",
    "JobSchedule",
    "ModelProfile",
    "Perf",
    "Segment",
    "SharingInstance",
    "SharingSolution",
]
