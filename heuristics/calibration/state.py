"""A calibration in progress: per-job, per-worker shares and samples, scored by the hub evaluator."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from packgap.calibration import CalibrationInstance, CalibrationSolution, JobCalibration, remaining_times
from packgap.calibration.objectives import instance_objective
from packgap.calibration.speed import FULL, speeds
from packgap.heuristics.calibration.liss import equal_split, liss_split


@dataclass
class Calibration:
    """Mutable working copy; ``shares[j][w]`` and ``samples[j][w]`` follow ``instance.jobs[j].gpus``."""

    shares: list[list[float]]
    samples: list[list[float]]

    def copy(self) -> Calibration:
        return Calibration([list(s) for s in self.shares], [list(b) for b in self.samples])

    def solution(self, instance: CalibrationInstance, search: Mapping[str, float] | None = None) -> CalibrationSolution:
        jobs = tuple(
            JobCalibration(job.id, tuple(self.shares[j]), tuple(self.samples[j])) for j, job in enumerate(instance.jobs)
        )
        return CalibrationSolution(jobs, dict(search or {}))

    def speeds(self, instance: CalibrationInstance) -> list[list[float]]:
        return speeds(instance, self.shares)

    def times(self, instance: CalibrationInstance) -> list[float]:
        return remaining_times(instance, self.solution(instance))

    def objective(self, instance: CalibrationInstance) -> float:
        return instance_objective(instance, self.times(instance))


def free_competition(instance: CalibrationInstance) -> Calibration:
    """Every share at 100 % (free competition) and every batch split evenly: packing without GIMBAL."""
    return Calibration(
        [[FULL] * job.world_size for job in instance.jobs],
        [equal_split(job.batch, job.world_size) for job in instance.jobs],
    )


def with_liss(instance: CalibrationInstance, shares: list[list[float]]) -> Calibration:
    """The given shares with every job's batch split by LISS (in proportion to speed)."""
    v = speeds(instance, shares)
    return Calibration([list(s) for s in shares], [liss_split(job.batch, v[j]) for j, job in enumerate(instance.jobs)])


def liss_only(instance: CalibrationInstance) -> Calibration:
    """Free competition with LISS on every job: unequal packing and LISS, no LGRR (Fig. 12's middle bar)."""
    return with_liss(instance, free_competition(instance).shares)
