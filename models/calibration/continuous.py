"""A lower bound on the calibration optimum over *continuous* shares (what any granularity can reach).

With real shares in [0, 100] the set of speed pairs a shared GPU can give is a continuum.
Cut [0, 100]^2 into square cells of side ``width``; on a cell [s0, s1] x [t0, t1] the share
factor is largest at the upper share and the overlap smallest at the lower corner
(:mod:`packgap.calibration.speed`: f nondecreasing, overlap nondecreasing in both shares), so

    a <= V f(s1) (1 - beta overlap(s0, t0)),   b <= V' f'(t1) (1 - beta' overlap(s0, t0))

bound every point of the cell. These corner points dominate the continuum, the objective is
nonincreasing in every speed, and the frontier merge with relaxation
(:func:`packgap.models.calibration.frontier.optimise` with a ``cap``) only ever replaces points by
dominating ones; hence the result is <= the continuous optimum <= every grid optimum. It
tightens as ``width`` shrinks and ``cap`` grows.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from packgap.calibration.speed import FULL, interference, overlap, share_factor
from packgap.models.calibration.frontier import optimise
from packgap.models.calibration.layout import FloatArray, Layout


def cell_options(lay: Layout, width: float) -> list[tuple[FloatArray, FloatArray]]:
    """Per shared GPU, the dominating corner (a, b) of every cell of side ``width``."""
    edges = np.linspace(0.0, FULL, round(FULL / width) + 1)
    s0, t0 = (m.ravel() for m in np.meshgrid(edges[:-1], edges[:-1], indexing="ij"))
    s1, t1 = (m.ravel() for m in np.meshgrid(edges[1:], edges[1:], indexing="ij"))
    tm = lay.instance.throughput
    big_model = lay.instance.jobs[lay.big].model
    out = []
    for gpu in lay.shared:
        model = lay.instance.jobs[gpu.job].model
        pb, pk = tm.profile(big_model), tm.profile(model)
        least = overlap(s0, t0)
        a = pb.speed * share_factor(s1, pb.utilization, tm.alpha) * interference(tm.pair_speed(big_model, model), least)
        b = pk.speed * share_factor(t1, pk.utilization, tm.alpha) * interference(tm.pair_speed(model, big_model), least)
        out.append((a, b))
    return out


def continuous_bound(
    lay: Layout, width: float = 0.5, cap: int = 400, check: Callable[[], None] = lambda: None
) -> tuple[float, int]:
    """A valid lower bound on the optimum over real shares, and the points generated."""
    found = optimise(lay, cell_options(lay, width), cap=cap, check=check)
    return found.objective, found.evaluations
