"""CUCKOO's packing scores: eff_value (eq. 1), ddl_value (eq. 11), total_value (eq. 12)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

Score = TypeVar("Score", float, np.ndarray)

#: CUCKOO section 4.4: "we set w = 0.6 for all subsequent experiments".
DEFAULT_W = 0.6


def eff_value(standalone: Sequence[float], interleaved: float) -> float:
    """Eq. 1: sum of the jobs' standalone durations over their interleaved duration."""
    if interleaved <= 0:
        raise ValueError(f"interleaved duration must be > 0, got {interleaved}")
    return sum(standalone) / interleaved


def ddl_value(deadlines: Sequence[float], now: float) -> float:
    """Eq. 11: (earliest deadline - now) / (latest deadline - now); 1 for one job.

    Deadlines at or before ``now`` leave no window to share; they score 0 (the paper's
    ratio is undefined there).
    """
    early, late = min(deadlines) - now, max(deadlines) - now
    if late <= 0 or early <= 0:
        return 0.0
    return early / late


def total_value(eff: Score, ddl: Score, w: float = DEFAULT_W) -> Score:
    """Eq. 12: w * eff_value + (1 - w) * ddl_value, the DAB matching weight (element-wise)."""
    if not 0.0 <= w <= 1.0:
        raise ValueError(f"w must lie in [0, 1], got {w}")
    return w * eff + (1.0 - w) * ddl
