"""Family ``planning``: CUCKOO's execution planning of formed job groups (section 3.3.3)."""

from __future__ import annotations

from typing import Any

from packgap.family import Family
from packgap.planning import instance, solution
from packgap.planning.evaluate import evaluate, schedule, validate
from packgap.planning.instance import Group, PlanningInstance
from packgap.planning.solution import GpuSequence, PlanningSolution


def _summary(inst: PlanningInstance) -> dict[str, Any]:
    return {
        "name": inst.name,
        "groups": len(inst.groups),
        "jobs": sum(len(g.jobs) for g in inst.groups),
        "gpu_types": {t.name: t.count for t in inst.gpu_types},
        "tardiness_weight": inst.tardiness_weight,
        "min_deadline_s": min(g.deadline for g in inst.groups),
        "max_deadline_s": max(g.deadline for g in inst.groups),
    }


FAMILY: Family[PlanningInstance, PlanningSolution] = Family.of(
    "planning",
    "CUCKOO execution planning: formed groups -> (GPU type, GPU, order)",
    instance,
    solution,
    validate=validate,
    evaluate=evaluate,
    summary=_summary,
)

__all__ = [
    "FAMILY",
    "GpuSequence",
    "Group",
    "PlanningInstance",
    "PlanningSolution",
    "schedule",
]
