"""The local objectives of GIMBAL section 5.2, on remaining times R_j = RemainingSteps_j / Throughput_j.

* ``jct`` (eq. 1): the mean of R_j over the job set.
* ``makespan`` (eq. 5): the largest R_j.
* ``deadline`` (eq. 3, corrected): the largest lateness max(0, now + R_j - Deadline_j). As
  printed, eq. 3 maximises Deadline_j - R_j, the *headroom*, which the text contradicts ("the
  maximum duration of jobs that exceed their deadlines"); deadlines are absolute times
  (submission + lambda x duration, section 7.1), hence ``now``.

Every function takes times of shape (..., jobs) and reduces the last axis, so the exact
methods score whole grids of candidates at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from packgap.calibration.instance import CalibrationInstance


def lateness(times: ArrayLike, now: float, deadlines: ArrayLike) -> NDArray[np.float64]:
    """max(0, now + R_j - Deadline_j), element-wise."""
    return np.maximum(0.0, now + np.asarray(times, dtype=float) - np.asarray(deadlines, dtype=float))


def local_objective(objective: str, times: ArrayLike, now: float, deadlines: ArrayLike) -> NDArray[np.float64]:
    """Eq. 1, eq. 5 or corrected eq. 3 over the last axis of ``times``."""
    t = np.asarray(times, dtype=float)
    if objective == "jct":
        return np.asarray(t.mean(axis=-1))
    if objective == "makespan":
        return np.asarray(t.max(axis=-1))
    return np.asarray(lateness(t, now, deadlines).max(axis=-1))


def instance_objective(instance: CalibrationInstance, times: Sequence[float]) -> float:
    """The instance's own objective for remaining times aligned with ``instance.jobs``."""
    deadlines = [j.deadline for j in instance.jobs]
    return float(local_objective(instance.objective, times, instance.now, deadlines))
