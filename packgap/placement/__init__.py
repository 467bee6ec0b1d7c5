"""Family ``placement``: one scheduling round of PAL's variability- and locality-aware GPU
placement (Jain et al., sections III-B, III-C)."""

from __future__ import annotations

from typing import Any

from packgap.family import Family
from packgap.placement import instance, solution
from packgap.placement.evaluate import JobSlowdown, evaluate, job_slowdown, validate
from packgap.placement.instance import Job, PlacementInstance
from packgap.placement.solution import PlacementSolution


def _summary(inst: PlacementInstance) -> dict[str, Any]:
    return {
        "name": inst.name,
        "nodes": inst.nodes,
        "gpus_per_node": inst.gpus_per_node,
        "free_gpus": inst.num_gpus - len(inst.unavailable),
        "jobs": len(inst.jobs),
        "gpus_demanded": sum(j.gpus for j in inst.jobs),
        "classes": list(inst.classes),
        "locality_penalty": inst.locality_penalty,
        "objective": inst.objective,
    }


FAMILY: Family[PlacementInstance, PlacementSolution] = Family.of(
    "placement",
    "PAL per-round placement: round's jobs -> GPUs, minimising sum of L x max V",
    instance,
    solution,
    validate=validate,
    evaluate=evaluate,
    summary=_summary,
)

__all__ = [
    "FAMILY",
    "Job",
    "JobSlowdown",
    "PlacementInstance",
    "PlacementSolution",
    "job_slowdown",
]
