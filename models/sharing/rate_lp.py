"""A time-indexed LP bound on the sum of completion times, valid with and without preemption.

The horizon [0, H) is cut into T slots of length D, plus an overflow at H. Per job j (model
``a``, G_j GPUs, arrival a_j, least solo time P_j of :func:`packgap.models.sharing.bound.
min_solo_time`) and slot t the variables are GPU-seconds: ``alone[j,t]`` on GPUs j holds
alone and ``shared[j,b,t]`` on GPUs j shares with a job of model ``b``; ``late[j]`` is the
solo work j does after H, ``C[j]`` its completion time. Any schedule, preemptive or not, maps
to a feasible point (each GPU-second counted where it happens), so the LP optimum is a bound:

* rate cap: alone + sum_b shared <= G_j x (the part of slot t after a_j): j holds at most its
  G_j GPUs;
* GPU capacity: sum_j alone + (1/2) sum_j,b shared <= N D: a shared GPU holds two jobs (C = 2,
  eq. 9), each counting the GPU-second;
* sharing balance, models a != b: sum over model-a jobs of shared[., b, t] = sum over model-b
  jobs of shared[., a, t]: a GPU shared by an a-job and a b-job slows both (eqs. 5-6). Pairs
  of one model need a second job of it;
* work: (sum_t alone + e_jb shared) / G_j + late = P_j, where e_jb = P_j / (xi(a, b) P_j^b)
  <= 1 prices a GPU-second shared with model b: xi(a, b) (eqs. 5-6) times the least solo time
  P_j^b over sub-batches whose worker fits beside a model-b worker at b = 1. The real pace is
  the slowest of j's GPUs (xi is the largest over partners), at most this average;
* mean busy date: C_j >= P_j / 2 + (1 / P_j) (sum_t s_jt x work_jt + H late_j), with s_jt =
  max(slot start, a_j), an underestimate of when the work ran: work done at pace <= 1 ends no
  earlier than packed at full pace just before C_j; and C_j >= a_j + P_j.

Gangs, memory beyond the pairs, topology and non-preemption are relaxed. The bound is not the
solver's objective: :func:`dual_bound` recomputes it from the row prices by weak duality with
every column bounded, then steps down by a relative 1e-9 for float summation, so any prices,
even from a stopped solve, certify a value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from packgap.models.sharing.bound import min_solo_time
from packgap.sharing import SharingInstance
from packgap.sharing.perf import iteration_time, memory_gb

#: Relative step down of the recomputed bound, for float summation over up to ~10^6 terms.
FLOAT_SLACK = 1e-9


@dataclass(frozen=True)
class RateLp:
    """min cost.x subject to row_lower <= A x <= row_upper, lower <= x <= upper (all finite)."""

    cost: np.ndarray
    matrix: sp.csc_matrix
    row_lower: np.ndarray
    row_upper: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    #: Column index of each job's completion time C_j.
    completion: np.ndarray


def shared_solo_time(instance: SharingInstance, j: int, partner_model: str) -> float | None:
    """P_j^b: j's least solo time over sub-batches whose worker fits beside a worker of
    ``partner_model`` at sub-batch 1 (None: none fits)."""
    job = instance.jobs[j]
    model = instance.models[job.model]
    room = instance.cluster.gpu_memory_gb - memory_gb(instance.models[partner_model], 1)
    times = [
        job.iterations * iteration_time(model, job.batch, math.ceil(job.batch / s), job.gpus)
        for s in range(1, job.batch + 1)
        if memory_gb(model, math.ceil(job.batch / s)) <= room + 1e-9
    ]
    return min(times) if times else None


def _pricing(instance: SharingInstance, solo: list[float]) -> dict[tuple[int, str], float]:
    """e_jb for every job j and partner model b it can share with."""
    count: dict[str, int] = {}
    for job in instance.jobs:
        count[job.model] = count.get(job.model, 0) + 1
    out: dict[tuple[int, str], float] = {}
    if instance.cluster.max_jobs_per_gpu < 2:
        return out
    for j, job in enumerate(instance.jobs):
        for b in sorted(count):
            if count[b] - (job.model == b) < 1:
                continue
            p = shared_solo_time(instance, j, b)
            if p is not None:
                out[(j, b)] = solo[j] / (instance.interference.xi(job.model, b) * p)
    return out


def build(instance: SharingInstance, horizon: float, slots: int, completion_cap: float) -> RateLp:
    """The LP over ``slots`` slots of [0, ``horizon``); ``completion_cap`` bounds each C_j
    from above (any value at least the sum of completion times of a known schedule keeps
    every better schedule feasible)."""
    if instance.cluster.max_jobs_per_gpu > 2:
        raise ValueError("the rate LP prices pairs only (C <= 2)")
    n, d = len(instance.jobs), horizon / slots
    solo = [min_solo_time(instance, j) for j in range(n)]
    price = _pricing(instance, solo)
    models = sorted({job.model for job in instance.jobs})
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    cost: list[float] = []
    lower: list[float] = []
    upper: list[float] = []

    def column(c: float, lo: float, hi: float, entries: list[tuple[int, float]]) -> int:
        k = len(cost)
        cost.append(c)
        lower.append(lo)
        upper.append(hi)
        for r, v in entries:
            rows.append(r)
            cols.append(k)
            vals.append(v)
        return k

    # Rows: capacity per slot, balance per (slot, a < b), rate cap per (job, slot), work and
    # mean-busy per job.
    pairs = [(a, b) for i, a in enumerate(models) for b in models[i + 1 :]]
    cap_row = {t: t for t in range(slots)}
    bal_row = {(t, a, b): slots + t * len(pairs) + k for t in range(slots) for k, (a, b) in enumerate(pairs)}
    base = slots + slots * len(pairs)
    rate_row = {(j, t): base + j * slots + t for j in range(n) for t in range(slots)}
    work_row = {j: base + n * slots + j for j in range(n)}
    busy_row = {j: base + n * slots + n + j for j in range(n)}
    row_lower = np.concatenate([np.full(base + n * slots, -np.inf), np.array(solo), np.zeros(n)])
    row_upper = np.concatenate(
        [np.full(slots, instance.cluster.gpus * d), np.zeros(len(bal_row)), np.zeros(n * slots), np.array(solo)]
    )
    row_upper = np.concatenate([row_upper, np.full(n, np.inf)])
    row_lower[slots : slots + len(bal_row)] = 0.0
    for j, job in enumerate(instance.jobs):
        g = job.gpus
        for t in range(slots):
            length = max(0.0, min(d, (t + 1) * d - job.arrival))
            row_upper[rate_row[(j, t)]] = g * length
            if length <= 0:
                continue
            start = max(t * d, job.arrival)
            hold = g * length
            busy = -start / (g * solo[j])
            column(
                0.0,
                0.0,
                hold,
                [(cap_row[t], 1.0), (rate_row[(j, t)], 1.0), (work_row[j], 1 / g), (busy_row[j], busy)],
            )
            for b in models:
                e = price.get((j, b))
                if e is None:
                    continue
                entries = [(cap_row[t], 0.5), (rate_row[(j, t)], 1.0), (work_row[j], e / g), (busy_row[j], e * busy)]
                if b != job.model:
                    lo, hi = sorted((job.model, b))
                    entries.append((bal_row[(t, lo, hi)], 1.0 if job.model == lo else -1.0))
                column(0.0, 0.0, hold, entries)
        column(0.0, 0.0, solo[j], [(work_row[j], 1.0), (busy_row[j], -horizon / solo[j])])
    completion = [
        column(1.0, job.arrival + solo[j], max(completion_cap, job.arrival + solo[j]), [(busy_row[j], 1.0)])
        for j, job in enumerate(instance.jobs)
    ]
    # busy row: C_j - (1/P_j) sum s work >= P_j / 2.
    row_lower[base + n * slots + n :] = np.array(solo) / 2
    shape = (len(row_lower), len(cost))
    matrix = sp.csc_matrix((vals, (rows, cols)), shape=shape)
    return RateLp(
        np.array(cost),
        matrix,
        row_lower,
        row_upper,
        np.array(lower),
        np.array(upper),
        np.array(completion, dtype=np.intp),
    )


def dual_bound(lp: RateLp, prices: np.ndarray) -> float:
    """A lower bound on the LP optimum from any row prices (weak duality).

    For min c.x over lower <= x <= upper and row_lower <= A x <= row_upper, any y gives
    c.x >= sum_i (y_i row_lower_i if y_i > 0 else y_i row_upper_i) + sum_k min over the
    column's bounds of (c - A^T y)_k x_k; prices of the wrong sign for a row with an infinite
    side are set to 0 first. Stepped down by :data:`FLOAT_SLACK`.
    """
    y = np.where((prices > 0) & ~np.isfinite(lp.row_lower), 0.0, prices)
    y = np.where((y < 0) & ~np.isfinite(lp.row_upper), 0.0, y)
    rows = np.where(y > 0, y * np.where(np.isfinite(lp.row_lower), lp.row_lower, 0.0), 0.0)
    rows += np.where(y < 0, y * np.where(np.isfinite(lp.row_upper), lp.row_upper, 0.0), 0.0)
    reduced = lp.cost - lp.matrix.T @ y
    columns = np.minimum(reduced * lp.lower, reduced * lp.upper)
    value = float(rows.sum() + columns.sum())
    return value - FLOAT_SLACK * abs(value)
