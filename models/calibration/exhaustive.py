"""Exhaustive search over the whole LGRR grid with the exact LISS split at every point (small sets).

Every combination of grid shares on every shared GPU is scored (a J_max worker alone on its
GPU stays at 100 %, :mod:`packgap.models.calibration.layout`): L^2 options per shared GPU for L grid
levels, so (L^2)^G points for G shared GPUs, 121^G at the default 10 % grid. It is the
reference the faster frontier search is checked against, and refuses more than
``max_points`` points. The count is a Python integer: 121^16 points (an 8-job set) overflow a
64-bit product, which once wrapped negative, passed the guard and scored no point at all.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from packgap.errors import PackgapError
from packgap.models.calibration.frontier import Optimum
from packgap.models.calibration.layout import FloatArray, Layout

#: Points scored per numpy batch (memory: a few arrays of this many floats).
CHUNK = 1 << 20


def search(
    lay: Layout,
    gpu_options: list[tuple[FloatArray, FloatArray]],
    max_points: int = 20_000_000,
    check: Callable[[], None] = lambda: None,
) -> Optimum:
    """Score every point of the grid; the least objective and its option per shared GPU."""
    sizes = [len(a) for a, _ in gpu_options]
    total = math.prod(sizes)
    if total > max_points:
        raise PackgapError(
            f"exhaustive search would score {total:,} points (> {max_points:,}); use exact-frontier or a coarser grid"
        )
    best, best_at = np.inf, 0
    for start in range(0, total, CHUNK):
        index = np.arange(start, min(total, start + CHUNK), dtype=np.int64)
        big = np.full(len(index), lay.solo_speed())
        partner = {job: np.zeros(len(index)) for job in lay.partners}
        rest = index
        for g, (a, b) in reversed(list(enumerate(gpu_options))):
            rest, pick = np.divmod(rest, len(a))
            big += a[pick]
            partner[lay.shared[g].job] += b[pick]
        value = lay.term(lay.big)(big)
        for job, speed in partner.items():
            value = lay.combine(value, lay.term(job)(speed))
        value = lay.finish(value)
        i = int(np.argmin(value))
        if value[i] < best:
            best, best_at = float(value[i]), int(index[i])
        check()
    if not math.isfinite(best):
        raise PackgapError(f"exhaustive search scored {total:,} points and found no finite objective")
    choice = np.zeros(len(sizes), dtype=np.int64)
    for g in reversed(range(len(sizes))):
        best_at, choice[g] = divmod(best_at, sizes[g])
    return Optimum(best, choice, total)
