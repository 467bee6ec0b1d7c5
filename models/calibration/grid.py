"""The LGRR grid options of every shared GPU, and the shares an option index stands for."""

from __future__ import annotations

import numpy as np

from packgap.calibration.speed import FULL
from packgap.models.calibration.layout import FloatArray, Layout, levels


def grid_options(lay: Layout, granularity: float) -> list[tuple[FloatArray, FloatArray]]:
    """Per shared GPU, (J_max speed, partner speed) at every pair of grid levels (s, t)."""
    lv = levels(granularity)
    s, t = (m.ravel() for m in np.meshgrid(lv, lv, indexing="ij"))
    return [lay.speeds(gpu, s, t) for gpu in lay.shared]


def shares(lay: Layout, granularity: float, choice: np.ndarray) -> list[list[float]]:
    """Per job, per worker shares of the grid option ``choice[i]`` on each shared GPU (solo: 100 %)."""
    lv = levels(granularity)
    out = [[FULL] * job.world_size for job in lay.instance.jobs]
    for gpu, option in zip(lay.shared, choice, strict=True):
        s, t = divmod(int(option), len(lv))
        out[lay.big][gpu.big_worker] = float(lv[s])
        out[gpu.job][gpu.worker] = float(lv[t])
    return out
