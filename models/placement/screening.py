"""A score screen before the block method: the free GPUs that no placement better than an
incumbent can use, so that a round of a few jobs on a large cluster is solved on the GPUs
that matter instead of all of them.

Two lower bounds on a placement's objective, both read off the sorted free scores:

* *Alone.* A job of type ``t`` (``packgap.models.placement.job_types``) that holds GPU ``g``
  costs at least ``c_t(g)``: within ``g``'s node ``weight x max(V(g), n_t(node))``, ``n_t``
  the node's ``N``-th best free score, and spread ``weight x L_across x max(V(g), s(N))``,
  ``s(k)`` the class's ``k``-th best free score (eq. 1), whichever the job may use. Its
  least, ``a_t``, is the job's optimum on an empty cluster.
* *Rearranged.* A job costs at least ``f_j x`` its worst score, ``f_j`` its weight, times
  ``L_across`` when it needs more than a node. The ``i`` jobs of a class with the best
  worst scores hold at least ``P_i`` (the sum of the ``i`` smallest demands) GPUs, so the
  ``i``-th best worst score is at least ``s(P_i)``, and the class pays at least
  ``R = sum_i f_(i) s(P_i)`` with the ``f`` in decreasing order (rearrangement inequality).
  For one job type this is the sorted split of ``job_types``.

Per class ``LB_c = max(sum of a_t over its jobs, R_c)``. A placement in which a job of type
``t`` holds ``g`` costs at least the other classes' ``LB`` plus
``max(A_c - a_t + c_t(g), R_{c without the job} + f_t V(g))``; when that exceeds ``upper`` for
every type, no placement of objective at most ``upper`` uses ``g``. Marking those GPUs
unavailable keeps every such placement, the incumbent's among them: the screened round has
the same optimum, and a bound on it bounds the original (whatever uses a screened-out GPU
costs more than ``upper``, itself at least the optimum).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from packgap.models.placement.job_types import JobType, job_types
from packgap.models.placement.pruning import SLACK_TOL
from packgap.placement import PlacementInstance


def least_factor(job_type: JobType, gpus_per_node: int) -> float:
    """``f_t``: the weight, times ``L_across`` when the job cannot fit on one node."""
    return job_type.weight if job_type.gpus <= gpus_per_node else job_type.across_factor()


@dataclass(frozen=True)
class Holding:
    """Per GPU id (inf where not free): the least cost of one job of a type holding it,
    within its node and spread over nodes."""

    within: np.ndarray
    spread: np.ndarray

    def cost(self) -> np.ndarray:
        return np.minimum(self.within, self.spread)


def holding(instance: PlacementInstance, free: np.ndarray, job_type: JobType) -> Holding:
    """``c_t(g)`` split by locality, ``free`` a mask over GPU ids."""
    scores = np.where(free, np.asarray(instance.pm_scores[job_type.job_class]), np.inf)
    n, per_node = job_type.gpus, instance.gpus_per_node
    within = np.full(len(scores), np.inf)
    if n <= per_node:
        nth = np.sort(scores.reshape(-1, per_node), axis=1)[:, n - 1]
        within = job_type.weight * np.maximum(scores, np.repeat(nth, per_node))
    spread = np.full(len(scores), np.inf)
    if n > 1 and free.sum() >= n:
        spread = job_type.across_factor() * np.maximum(scores, np.partition(scores, n - 1)[n - 1])
    return Holding(within, spread)


def rearranged(factors: list[float], sizes: list[int], ranked: np.ndarray) -> float:
    """``R``: jobs of factors ``factors`` and demands ``sizes`` on the class's ``ranked`` scores."""
    if not factors:
        return 0.0
    reach = np.cumsum(sorted(sizes)) - 1
    return float(np.sort(factors)[::-1] @ ranked[reach])


def screen(instance: PlacementInstance, upper: float) -> PlacementInstance:
    """``instance`` with every free GPU that no placement of objective <= ``upper`` uses made
    unavailable (the same instance when none is)."""
    free = np.zeros(instance.num_gpus, dtype=bool)
    free[instance.free_gpus()] = True
    types = job_types(instance)
    scores = {c: np.asarray(instance.pm_scores[c]) for c in {t.job_class for t in types}}
    ranked = {c: np.sort(s[free]) for c, s in scores.items()}
    costs = [holding(instance, free, t).cost() for t in types]
    alone = [float(c.min()) for c in costs]
    factors = [least_factor(t, instance.gpus_per_node) for t in types]
    lower: dict[str, float] = {}
    for c in ranked:
        mine = [i for i, t in enumerate(types) if t.job_class == c]
        jobs = [(factors[i], types[i].gpus) for i in mine for _ in range(types[i].count)]
        lower[c] = max(sum(alone[i] * types[i].count for i in mine), rearranged(*_split(jobs), ranked[c]))
    total = sum(lower.values())
    keep = np.zeros(instance.num_gpus, dtype=bool)
    tol = SLACK_TOL * max(1.0, abs(upper))
    for i, t in enumerate(types):
        c = t.job_class
        jobs = [(factors[k], types[k].gpus) for k, u in enumerate(types) if u.job_class == c for _ in range(u.count)]
        jobs.remove((factors[i], t.gpus))
        own = sum(alone[k] * u.count for k, u in enumerate(types) if u.job_class == c)
        rest = total - lower[c]
        alone_bound = own - alone[i] + costs[i]
        rank_bound = rearranged(*_split(jobs), ranked[c]) + factors[i] * scores[c]
        keep |= rest + np.maximum(alone_bound, rank_bound) <= upper + tol
    keep &= free
    if keep.sum() == free.sum():
        return instance
    return replace(instance, unavailable=instance.unavailable | frozenset(np.flatnonzero(free & ~keep).tolist()))


def _split(jobs: list[tuple[float, int]]) -> tuple[list[float], list[int]]:
    return [f for f, _ in jobs], [n for _, n in jobs]
