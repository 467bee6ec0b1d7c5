"""Family ``calibration``: GIMBAL's worker coordination inside one packed job set (sections 4-5)."""

from __future__ import annotations

from typing import Any

from packgap.calibration import instance, solution
from packgap.calibration.evaluate import evaluate, remaining_times, validate
from packgap.calibration.instance import CalibrationInstance, Job
from packgap.calibration.solution import CalibrationSolution, JobCalibration
from packgap.calibration.throughput import ModelProfile, PairSpeed, ThroughputModel
from packgap.family import Family


def _summary(inst: CalibrationInstance) -> dict[str, Any]:
    big = inst.jobs[inst.j_max()]
    return {
        "name": inst.name,
        "objective": inst.objective,
        "jobs": len(inst.jobs),
        "gpus": len({g for j in inst.jobs for g in j.gpus}),
        "j_max": f"{big.id} ({big.model}, {big.world_size} GPUs)",
        "models": sorted({j.model for j in inst.jobs}),
        "alpha": inst.throughput.alpha,
    }


FAMILY: Family[CalibrationInstance, CalibrationSolution] = Family.of(
    "calibration",
    "GIMBAL worker calibration of a packed job set: LGRR shares + LISS sample split",
    instance,
    solution,
    validate=validate,
    evaluate=evaluate,
    summary=_summary,
)

__all__ = [
    "FAMILY",
    "CalibrationInstance",
    "CalibrationSolution",
    "Job",
    "JobCalibration",
    "ModelProfile",
    "PairSpeed",
    "ThroughputModel",
    "remaining_times",
]
