"""Safe bounds and pricing from the duals of the time-indexed LP (:mod:`packgap.models.packing.ti_grid`).

For any row prices ``u`` (job rows, free) and ``v <= 0`` (capacity rows), weak duality gives,
for every x meeting the rows, ``c.x >= sum(u) + sum_kq M_k v_kq + rc.x`` with reduced costs
``rc = c - A^T (u, v)``. Each column holds at most two jobs and each job lies in exactly one
chosen column, so ``rc.x >= sum_j min(0, min over columns holding j of rc / |members|)``:

    bound = sum(u) + sum_kq M_k v_kq + sum_j neg_j               (Lagrangian bound)

This holds for *any* prices, so a bound from an LP stopped early, or from duals of a
restricted LP (column generation), is still a certificate as long as ``rc`` is priced over
every column of the set the bound speaks about; the duals are clipped to ``v <= 0`` first.
The same argument with one column fixed to 1 gives reduced-cost fixing: a column whose
``bound + rc - neg(its members)`` exceeds the incumbent's cost lies in no better solution
(Nemhauser and Wolsey 1988, section II.2.6; van den Akker, Hurkens and Savelsbergh 2000 use
both for time-indexed scheduling LPs).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.models.packing.ti_grid import EPS, ColumnSet, Options, Segments


@dataclass(frozen=True)
class Duals:
    """Prices of the job rows and (clipped to <= 0) of the capacity segments."""

    jobs: np.ndarray
    capacity: np.ndarray


def duals(job_rows: np.ndarray, usage_reduced_costs: np.ndarray) -> Duals:
    """From the LP: the job rows' duals and the reduced costs of the usage variables
    (:class:`packgap.models.packing.ti_grid.Segments`), which price the capacity segments."""
    return Duals(job_rows.copy(), np.minimum(usage_reduced_costs, 0.0))


def reduced_costs(opts: Options, segments: Segments, cols: ColumnSet, prices: Duals) -> np.ndarray:
    """``c - A^T (u, v)`` of every column, from prefix sums of the capacity prices."""
    cum = np.concatenate([[0.0], np.cumsum(prices.capacity)])
    lo, hi = segments.span(opts, cols)
    capacity = opts.demand[cols.option] * (cum[hi] - cum[lo])
    members = opts.jobs[cols.option]
    job_price = np.where(members >= 0, prices.jobs[np.maximum(members, 0)], 0.0).sum(axis=1)
    return cols.cost - job_price - capacity


@dataclass(frozen=True)
class DualBound:
    """The Lagrangian bound (objective without its constant) and each job's ``neg_j``."""

    value: float
    neg: np.ndarray


def lagrangian_bound(
    opts: Options, counts: np.ndarray, segments: Segments, cols: ColumnSet, rc: np.ndarray, prices: Duals
) -> DualBound:
    """The module docstring's bound over the columns ``cols`` (every one must be priced);
    ``counts[k]`` is the GPU count of type k."""
    jobs = segments.jobs
    members = opts.jobs[cols.option]
    share = rc / (members >= 0).sum(axis=1)
    neg = np.zeros(jobs)
    for slot in range(members.shape[1]):
        has = members[:, slot] >= 0
        np.minimum.at(neg, members[has, slot], share[has])
    covered = np.zeros(jobs, dtype=bool)
    covered[members[members >= 0]] = True
    if not covered.all():
        return DualBound(np.inf, neg)  # a job with no column left: no better solution exists
    per_segment = np.repeat(counts, np.diff(segments.first))
    value = prices.jobs.sum() + float((per_segment * prices.capacity).sum()) + neg.sum()
    return DualBound(float(value), neg)


def improving(opts: Options, cols: ColumnSet, rc: np.ndarray, bound: DualBound, ceiling: float) -> np.ndarray:
    """Mask of the columns that may lie in a solution costing less than ``ceiling``
    (reduced-cost fixing; kept when in doubt by a relative :data:`EPS`)."""
    members = opts.jobs[cols.option]
    own = np.where(members >= 0, bound.neg[np.maximum(members, 0)], 0.0).sum(axis=1)
    floor = bound.value + rc - own
    return floor <= ceiling + EPS * max(1.0, abs(ceiling)) * 10
