"""Family ``packing``: CUCKOO's deadline-aware job packing on heterogeneous GPUs (section 3.3)."""

from __future__ import annotations

from typing import Any

from packgap.family import Family
from packgap.packing import instance, solution
from packgap.packing.evaluate import evaluate, outcomes, validate
from packgap.packing.instance import Job, PackingInstance
from packgap.packing.solution import PackingSolution, PlacedGroup
from packgap.packing.timeline import GroupTimeline, audit_rows, candidate_groups, group_timelines


def _summary(inst: PackingInstance) -> dict[str, Any]:
    return {
        "name": inst.name,
        "jobs": len(inst.jobs),
        "gpu_types": {t.name: t.count for t in inst.gpu_types},
        "demands": sorted({j.gpus for j in inst.jobs}),
        "models": sorted({j.model for j in inst.jobs}),
        "objective": inst.objective,
        "alpha": inst.alpha,
        "beta": inst.beta,
        "interleaving": inst.interleaving,
        "interference": inst.interference,
        "last_arrival_s": max(j.arrival for j in inst.jobs),
    }


FAMILY: Family[PackingInstance, PackingSolution] = Family.of(
    "packing",
    "CUCKOO packing: jobs -> groups (pairs; up to 4 for Muri) on a GPU type with start times",
    instance,
    solution,
    validate=validate,
    evaluate=evaluate,
    summary=_summary,
)

__all__ = [
    "FAMILY",
    "GroupTimeline",
    "Job",
    "PackingInstance",
    "PackingSolution",
    "PlacedGroup",
    "audit_rows",
    "candidate_groups",
    "group_timelines",
    "outcomes",
]
