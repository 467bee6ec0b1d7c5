"""Theorem 1 of SJF-BSBF (section V-A): share a running job's GPUs now, or wait for it?

A running job R has ``P_R`` seconds of solo work left; a new job N needs ``P_N`` seconds
alone. N is inserted at kappa in [0, P_R]; from then on both run xi times slower (eqs.
16-17) until the first of them finishes. The pair's average completion time (measured
from now) is ``kappa + t_con(P_R - kappa, P_N)``: piecewise linear in kappa, so its
minimum sits at kappa = 0 (share now) or kappa = P_R (run N after R), as the theorem says.

The printed sign test of eq. 25 (share iff 2 xi_B + xi_A - 2 xi_A xi_B > 0) is a
derivation slip: it ignores P_R and P_N and disagrees with the direct comparison on a
large share of random pairs (:func:`printed_sign_test` keeps it for that comparison).
Implemented here is the comparison the proof's last sentence names: share iff
t_con < t_seq, where

* t_seq = P_R + P_N / 2 (N starts when R ends);
* t_con = P_R / 2 + (1 - 1 / (2 xi_R)) xi_N P_N when N finishes first under sharing
  (xi_N P_N <= xi_R P_R), and P_N / 2 + (1 - 1 / (2 xi_N)) xi_R P_R otherwise.

A tie (e.g. P_R = 100, P_N = 50, both xi = 2) keeps the jobs apart: sharing then buys
nothing and costs memory.

>>> d = pair_decision(100.0, 50.0, 1.2, 1.2)
>>> round(d.t_con, 9), d.t_seq, d.share, d.kappa
(85.0, 125.0, True, 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from packgap.errors import PackgapError
from packgap.sharing.pair_time import concurrent_average, shared_average


@dataclass(frozen=True)
class PairDecision:
    """Average completion times of the two schedules, the best kappa and the decision."""

    t_seq: float
    t_con: float
    kappa: float
    share: bool

    @property
    def t_share(self) -> float:
        """The pair's best average completion time (Algorithm 2's t_share)."""
        return self.t_con if self.share else self.t_seq


def _check(running_remaining: float, new: float, xi_running: float, xi_new: float) -> None:
    problems = [
        f"{name} must be a finite number >= 0, got {value}"
        for name, value in (("running-remaining", running_remaining), ("new", new))
        if not (math.isfinite(value) and value >= 0)
    ]
    problems += [
        f"{name} must be a finite number >= 1 (sharing never speeds a job up), got {value}"
        for name, value in (("xi-running", xi_running), ("xi-new", xi_new))
        if not (math.isfinite(value) and value >= 1)
    ]
    if problems:
        raise PackgapError("; ".join(problems))


def pair_average(running_remaining: float, new: float, xi_running: float, xi_new: float, kappa: float) -> float:
    """The pair's average completion time when N is inserted at ``kappa`` in [0, P_R]."""
    return kappa + concurrent_average(running_remaining - kappa, new, xi_running, xi_new)


def pair_decision(running_remaining: float, new: float, xi_running: float, xi_new: float) -> PairDecision:
    """Theorem 1 by direct comparison; raises :class:`PackgapError` on xi < 1 or negative times."""
    _check(running_remaining, new, xi_running, xi_new)
    return decide(running_remaining, new, xi_running, xi_new)


def decide(running_remaining: float, new: float, xi_running: float, xi_new: float) -> PairDecision:
    """:func:`pair_decision` without the input checks (Algorithm 2's inner loop, whose
    inputs come from a validated instance)."""
    t_seq = running_remaining + new / 2
    t_con = concurrent_average(running_remaining, new, xi_running, xi_new)
    share = t_con < t_seq
    return PairDecision(t_seq, t_con, 0.0 if share else running_remaining, share)


def decide_many(
    running_remaining: np.ndarray,
    new: np.ndarray,
    xi_running: np.ndarray,
    xi_new: np.ndarray,
    sign_test: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`decide` elementwise over broadcast arrays: (share, t_share), bit for bit the
    values of the scalar form (the same float operations in the same order). ``sign_test``:
    SF from eq. 25's printed test (:func:`printed_sign_test`) instead, t_share the average of
    the schedule it picks (the reading the issue 18.1 reproduction measures)."""
    t_seq, t_con = averages_many(running_remaining, new, xi_running, xi_new)
    share = np.broadcast_to(printed_sign_test(xi_new, xi_running), t_con.shape) if sign_test else t_con < t_seq
    return share, np.where(share, t_con, t_seq)


def averages_many(
    running_remaining: np.ndarray, new: np.ndarray, xi_running: np.ndarray, xi_new: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """t_seq and t_con elementwise over broadcast arrays, bit for bit the scalar form's."""
    t_seq = running_remaining + new / 2
    n_first = xi_new * new <= xi_running * running_remaining
    t_con = np.where(
        n_first,
        shared_average(running_remaining, new, xi_running, xi_new),
        shared_average(new, running_remaining, xi_new, xi_running),
    )
    return t_seq, t_con


def printed_sign_test(xi_new: float | np.ndarray, xi_running: float | np.ndarray) -> bool | np.ndarray:
    """The paper's eq. 25 test as printed (A = new job, B = running job): share iff > 0
    (elementwise on arrays)."""
    return 2 * xi_running + xi_new - 2 * xi_new * xi_running > 0


def sign_test_disagreement(samples: int = 100_000, seed: int = 0, swapped: bool = False) -> float:
    """The share of random pairs (P_R, P_N uniform in [1, 1000] s, xi uniform in [1, 3]) where
    eq. 25's printed test disagrees with the direct comparison; ``swapped`` reads its A as the
    running job and B as the new one instead."""
    rng = np.random.default_rng(seed)
    p_r, p_n = rng.uniform(1, 1000, samples), rng.uniform(1, 1000, samples)
    x_r, x_n = rng.uniform(1, 3, samples), rng.uniform(1, 3, samples)
    direct, _ = decide_many(p_r, p_n, x_r, x_n)
    printed = printed_sign_test(x_r, x_n) if swapped else printed_sign_test(x_n, x_r)
    return float(np.mean(printed != direct))
