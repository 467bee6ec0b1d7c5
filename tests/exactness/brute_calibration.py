"""Brute-force calibration optimum: every worker's share on the LGRR grid, scored by the evaluator.

From the family's definition (GIMBAL sections 4.1 and 5.2, :mod:`packgap.calibration.speed`):
a solution gives every worker a share on the grid 100, 100 - g, ... >= 0, and LISS splits a
job's batch; for fixed shares the step time c + max_w b_w / v_w is least when the batch is
split in proportion to speed, so each grid point is scored with that split. Unlike the exact
methods this fixes nothing in advance: J_max's solo workers range over the grid too.
"""

from __future__ import annotations

import itertools
import math

from packgap.calibration import FAMILY, CalibrationInstance, CalibrationSolution, JobCalibration
from packgap.calibration.speed import FULL, speeds


def grid(granularity: float) -> list[float]:
    return [FULL - granularity * k for k in range(int(FULL // granularity + 1e-9) + 1)]


def points(instance: CalibrationInstance) -> int:
    return len(grid(instance.granularity)) ** sum(j.world_size for j in instance.jobs)


def solution(instance: CalibrationInstance, shares: list[list[float]]) -> CalibrationSolution | None:
    """The shares with each batch split in proportion to speed; None if a job has no speed."""
    v = speeds(instance, shares)
    jobs = []
    for j, job in enumerate(instance.jobs):
        total = sum(v[j])
        if total <= 0:
            return None
        jobs.append(JobCalibration(job.id, tuple(shares[j]), tuple(job.batch * x / total for x in v[j])))
    return CalibrationSolution(tuple(jobs))


def optimum(instance: CalibrationInstance) -> tuple[float, CalibrationSolution]:
    levels = grid(instance.granularity)
    sizes = [j.world_size for j in instance.jobs]
    best, best_sol = math.inf, None
    for flat in itertools.product(levels, repeat=sum(sizes)):
        cut = list(itertools.accumulate(sizes, initial=0))
        sol = solution(instance, [list(flat[a:b]) for a, b in itertools.pairwise(cut)])
        if sol is None:
            continue
        value = FAMILY.evaluate(instance, sol).objective
        if value < best:
            best, best_sol = value, sol
    assert best_sol is not None
    FAMILY.validate(instance, best_sol)
    return best, best_sol
