"""A certified lower bound for one PAL round: the Lagrangian dual of the block-path model.

Dualise the GPU rows (price ``pi[g]``) and the job-count rows (price ``mu[t]`` per job) of
``packgap.models.placement.block_paths``. What is left splits by type: each type's cheapest walk
(``packgap.models.placement.walks``) and each within-node subset on its own (taken when its reduced
cost is negative). For *any* prices (``pi <= 0`` when some GPU may stay idle)

    L(pi, mu) = sum_g pi[g] + sum_t mu[t] m_t + sum_t walk_t + sum_S min(0, rc_S)

is a lower bound on every placement's objective (weak duality), and its maximum is the block
model's LP bound, which the walks make far stronger than a per-GPU LP: a walk pays a block's
worst score, an LP over GPUs only its mean. No rounding enters: the bound is the exact value of
``L`` at the prices used, less a margin for floating-point error. The ascent that chooses the
prices is ``packgap.analysis.placement.exact_blocks.ascent``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.models.placement.job_types import JobType, job_types, within_subsets
from packgap.models.placement.walks import WalkGrid, Walks, cheapest_walks, walk_grid
from packgap.placement import PlacementInstance

#: Relative margin subtracted from every computed ``L`` (float64 sums of up to 10^6 terms).
SAFETY = 1e-9


@dataclass(frozen=True)
class RoundDual:
    """The Lagrangian's data: walk grid, job counts and the within-node subsets in CSR form
    (subset ``i`` holds ``gpus[ptr[i]:ptr[i+1]]``, belongs to type ``owner[i]``)."""

    instance: PlacementInstance
    grid: WalkGrid
    counts: np.ndarray
    fills: bool
    owner: np.ndarray
    cost: np.ndarray
    ptr: np.ndarray
    gpus: np.ndarray

    @property
    def types(self) -> tuple[JobType, ...]:
        return self.grid.types


def round_dual(instance: PlacementInstance) -> RoundDual:
    types = job_types(instance)
    owner: list[int] = []
    cost: list[float] = []
    members: list[int] = []
    for i, t in enumerate(types):
        scores = instance.pm_scores[t.job_class]
        for s in within_subsets(instance, t):
            owner.append(i)
            cost.append(t.weight * max(scores[g] for g in s))
            members.extend(s)
    sizes = [types[i].gpus for i in owner]
    return RoundDual(
        instance,
        walk_grid(instance, types),
        np.array([t.count for t in types], dtype=float),
        sum(j.gpus for j in instance.jobs) == len(instance.free_gpus()),
        np.array(owner, dtype=np.int64),
        np.array(cost),
        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        np.array(members, dtype=np.int64),
    )


@dataclass(frozen=True)
class DualPoint:
    """``L`` at one price vector (``value``, margin taken off), the subproblems' answers and
    the subgradient (row right-hand side minus row activity)."""

    value: float
    pi: np.ndarray
    mu: np.ndarray
    walks: Walks
    subset_rc: np.ndarray
    step_pi: np.ndarray
    step_mu: np.ndarray


def subset_reduced_costs(rd: RoundDual, pi: np.ndarray, mu: np.ndarray) -> np.ndarray:
    if not len(rd.owner):
        return np.zeros(0)
    return rd.cost - np.add.reduceat(pi[rd.gpus], rd.ptr[:-1]) - mu[rd.owner]


def evaluate(rd: RoundDual, pi: np.ndarray, mu: np.ndarray) -> DualPoint:
    """``L(pi, mu)``; ``pi`` is indexed by GPU id (entries of GPUs that are not free are unused)."""
    grid = rd.grid
    walks = cheapest_walks(grid, pi, mu)
    rc = subset_reduced_costs(rd, pi, mu)
    free_pi = pi[grid.free]
    terms = (free_pi.sum(), mu @ rd.counts, walks.value.sum(), np.minimum(rc, 0.0).sum())
    scale = np.abs(free_pi).sum() + np.abs(mu) @ rd.counts + np.abs(walks.value).sum() + np.abs(rc).sum() + 1.0
    vs, ts = np.nonzero(walks.taken)
    usage = np.bincount(grid.order[grid.type_class[ts], vs], minlength=len(pi)).astype(float)
    chosen = rc < 0
    if chosen.any():
        sizes = np.diff(rd.ptr)
        usage += np.bincount(rd.gpus[np.repeat(chosen, sizes)], minlength=len(pi))
    blocks = walks.taken.sum(axis=0) / grid.sizes()
    jobs = blocks + np.bincount(rd.owner[chosen], minlength=len(rd.types))
    step_pi = np.zeros(len(pi))
    step_pi[grid.free] = 1.0 - usage[grid.free]
    return DualPoint(float(sum(terms)) - SAFETY * float(scale), pi, mu, walks, rc, step_pi, rd.counts - jobs)
