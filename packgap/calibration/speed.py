"""The throughput model of a packed job set: LGRR shares -> worker speeds -> step times.

GIMBAL publishes no MPS-share curves (DESIGN.md, "Slips in the papers"), so this is a stated
assumption: a parametric family pinned to measured data at its two end points.

Worker speed (samples/s) of a job of model m with MPS share ``s`` (%) whose GPU co-runner has
share ``t`` (t = 0 when the worker is alone on its GPU)::

    v(s, t) = V_m * f_m(s) * (1 - beta_mk * overlap(s, t))
    f_m(s)  = min(1, s / u_m) ** alpha            # concave in the own share, capped at 1
    overlap = max(0, s + t - 100) / 100            # shares may sum above 100 % (section 4.1)
    beta_mk = 1 - min(1, p_mk)                      # p_mk: measured free-competition pair speed

Anchors: v(100, 0) = V_m, the measured solo speed; v(100, 100) = V_m * p_mk, the measured
speed of m beside k under free competition (200 % = free competition, section 4.1). The
cap u_m is the model's solo GPU utilisation (%): a worker that keeps the GPU busy u % of the
time is taken to need no more than a u % share. ``alpha`` (default 0.5) shapes the curve
between the anchors; nothing in the paper fixes it. v is concave in s (a concave
nondecreasing factor times a linear nonincreasing one), and it may fall when a worker past
its cap swells further into its co-runner's share: that contention is what LGRR removes.

Step time (LISS, section 4.1 and DESIGN.md): a worker holding ``b`` samples needs b / v
seconds, every worker pays the job's fixed cost c (synchronisation, data loading), and a
step ends when the last worker ends: ``c + max_w b_w / v_w``. Splitting the global batch B in
proportion to speed makes all workers finish together, ``c + B / sum_w v_w`` (closed form,
:func:`liss_step`); the best integer split is within one sample of the slowest worker of it
(``tests/calibration/test_liss.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from packgap.calibration.instance import CalibrationInstance

FloatArray = NDArray[np.float64]

#: Shares are percentages of one GPU's resources (MPS active-thread percentage).
FULL = 100.0


def share_factor(share: ArrayLike, utilization: float, alpha: float) -> FloatArray:
    """f(s) = min(1, s / u) ** alpha: the fraction of solo speed an MPS share ``s`` (%) leaves."""
    s = np.asarray(share, dtype=float)
    return np.minimum(1.0, s / utilization) ** alpha


def overlap(share: ArrayLike, partner_share: ArrayLike) -> FloatArray:
    """Fraction of the GPU both co-runners may use at once: max(0, s + t - 100) / 100."""
    return np.maximum(0.0, np.asarray(share, dtype=float) + np.asarray(partner_share, dtype=float) - FULL) / FULL


def interference(pair_speed: float, shared: ArrayLike) -> FloatArray:
    """1 - beta * overlap with beta = 1 - min(1, p): 1 apart, p under free competition."""
    return np.asarray(1.0 - (1.0 - min(1.0, pair_speed)) * np.asarray(shared, dtype=float))


def worker_speed(
    speed: float, utilization: float, alpha: float, pair_speed: float, share: ArrayLike, partner_share: ArrayLike
) -> FloatArray:
    """v(s, t) of the module docstring, element-wise over arrays of shares."""
    return speed * share_factor(share, utilization, alpha) * interference(pair_speed, overlap(share, partner_share))


def liss_step(fixed_cost: float, batch: float, speeds: ArrayLike) -> FloatArray:
    """Closed-form LISS step time c + B / sum(v) (``speeds`` summed over its last axis)."""
    total = np.sum(np.asarray(speeds, dtype=float), axis=-1)
    with np.errstate(divide="ignore"):
        return fixed_cost + np.where(total > 0, batch / np.where(total > 0, total, 1.0), np.inf)


def split_step(fixed_cost: float, samples: Sequence[float], speeds: Sequence[float]) -> float:
    """Step time of a given split: c + max over workers holding samples of b / v (inf if v = 0)."""
    longest = 0.0
    for b, v in zip(samples, speeds, strict=True):
        if b > 0:
            longest = max(longest, b / v if v > 0 else float("inf"))
    return fixed_cost + longest


def speeds(instance: CalibrationInstance, shares: Sequence[Sequence[float]]) -> list[list[float]]:
    """Every worker's speed for per-job, per-worker shares (aligned with ``job.gpus``)."""
    tm = instance.throughput
    partners = instance.partners()
    out: list[list[float]] = []
    for j, job in enumerate(instance.jobs):
        prof = tm.profile(job.model)
        row = []
        for w in range(job.world_size):
            other = partners[(j, w)]
            if other is None:
                t, p = 0.0, 1.0
            else:
                t = shares[other[0]][other[1]]
                p = tm.pair_speed(job.model, instance.jobs[other[0]].model)
            row.append(float(worker_speed(prof.speed, prof.utilization, tm.alpha, p, shares[j][w], t)))
        out.append(row)
    return out
