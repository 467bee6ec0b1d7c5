"""Two jobs sharing their GPUs (SJF-BSBF section V-A, eqs. 16-17): the progress model of
:mod:`packgap.sharing.progress` in closed form for one pair.

A job with ``P`` seconds of solo work left runs ``xi`` times slower while it shares. If both
share from now and ``sooner`` ends first (``xi_sooner * sooner <= xi_later * later``), it ends
at ``xi_sooner * sooner``; by then ``later`` has done ``xi_sooner * sooner / xi_later`` of its
solo work and ends, alone, ``later - xi_sooner * sooner / xi_later`` seconds after. The average
of the two completion times is :func:`shared_average`. Theorem 1
(:mod:`packgap.heuristics.sharing.pair`) and the exact pair bound (:mod:`packgap.models.sharing.pair_bound`)
both read it from here.

>>> shared_average(100.0, 50.0, 1.2, 1.2)  # P_R = 100, P_N = 50: the theorem's t_con
85.0
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

#: A float or a numpy array of them (the formulas serve both).
F = TypeVar("F", float, np.ndarray)


def shared_average(later: F, sooner: F, xi_later: F, xi_sooner: F) -> F:
    """The pair's average completion time when both share from now and ``sooner`` ends first."""
    return later / 2 + sooner_factor(xi_later, xi_sooner) * sooner


def sooner_factor(xi_later: F, xi_sooner: F) -> F:
    """(1 - 1 / (2 xi_later)) xi_sooner, the factor of ``sooner`` in :func:`shared_average`: it
    depends on the two models alone, so array forms take it from a table per model pair."""
    return (1 - 1 / (2 * xi_later)) * xi_sooner


def concurrent_average(running_remaining: float, new: float, xi_running: float, xi_new: float) -> float:
    """t_con: the pair's average completion time when N starts now beside R."""
    if xi_new * new <= xi_running * running_remaining:
        return shared_average(running_remaining, new, xi_running, xi_new)
    return shared_average(new, running_remaining, xi_new, xi_running)
