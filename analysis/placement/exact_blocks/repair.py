"""Lagrangian repair: a placement from the prices of ``packgap.models.placement.block_bound``.

At good prices the types' cheapest walks almost partition the GPUs (Fisher 1981, "Lagrangian
heuristics"). The repair keeps that structure and fixes the overlaps: within-node subsets of
negative reduced cost are taken greedily, cheapest first, while they neither overlap nor
exceed their type's job count; every other GPU then goes to one type by a transport whose
cost for (type, GPU) is the walk slack of that take (``packgap.models.placement.walks.take_slack``:
0 on the type's cheapest walk), plus ``TIE_WEIGHT`` x the GPU's score so that slack ties
go to better GPUs. Each type's GPUs are then cut into score-ordered blocks, which is exact
for the pool it got (``packgap.models.placement.job_types``).
"""

from __future__ import annotations

import numpy as np

from packgap.analysis.placement.exact_blocks.transport import transport
from packgap.models.placement.block_bound import RoundDual, subset_reduced_costs
from packgap.models.placement.job_types import blocks
from packgap.models.placement.walks import take_slack
from packgap.placement import PlacementSolution

#: Weight of the PM-score in the transport cost (breaks ties between zero-slack GPUs).
TIE_WEIGHT = 1e-6


def _within(rd: RoundDual, pi: np.ndarray, mu: np.ndarray) -> dict[int, list[tuple[int, ...]]]:
    rc = subset_reduced_costs(rd, pi, mu)
    chosen: dict[int, list[tuple[int, ...]]] = {t: [] for t in range(len(rd.types))}
    used: set[int] = set()
    for i in np.argsort(rc, kind="stable"):
        if rc[i] >= 0:
            break
        t = int(rd.owner[i])
        gpus = tuple(int(g) for g in rd.gpus[rd.ptr[i] : rd.ptr[i + 1]])
        if len(chosen[t]) < rd.types[t].count and used.isdisjoint(gpus):
            chosen[t].append(gpus)
            used.update(gpus)
    return chosen


def repair(rd: RoundDual, pi: np.ndarray, mu: np.ndarray) -> PlacementSolution:
    """A placement near the types' cheapest walks at prices ``(pi, mu)``."""
    grid, inst = rd.grid, rd.instance
    within = _within(rd, pi, mu)
    taken = {g for subsets in within.values() for s in subsets for g in s}
    left = np.array([g for g in grid.free if g not in taken], dtype=np.int64)
    position = np.empty(inst.num_gpus, dtype=np.int64)
    slack = take_slack(grid, pi, mu)
    cost = np.empty((len(rd.types), len(left)))
    for t, job_type in enumerate(rd.types):
        c = grid.type_class[t]
        position[grid.order[c]] = np.arange(grid.levels)
        per_gpu = slack[:, grid.offset[t] : grid.offset[t + 1]].min(axis=1)
        scores = np.asarray(inst.pm_scores[job_type.job_class])
        cost[t] = np.minimum(per_gpu[position[left]], 1e6) + TIE_WEIGHT * scores[left]
    demand = [(t.count - len(within[i])) * t.gpus for i, t in enumerate(rd.types)]
    assigned, _ = transport(cost, demand)
    allocations: dict[str, tuple[int, ...]] = {}
    for i, job_type in enumerate(rd.types):
        pool = left[assigned == i].tolist()
        jobs = [*within[i], *blocks(pool, job_type.gpus, inst.pm_scores[job_type.job_class])]
        allocations.update(zip(job_type.jobs, jobs, strict=True))
    return PlacementSolution(allocations)
