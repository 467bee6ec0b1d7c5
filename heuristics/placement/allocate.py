"""The loop every per-round placement policy shares: jobs one by one, GPUs from a free pool."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from packgap.deadline import check
from packgap.heuristics.placement.free_pool import FreePool
from packgap.placement import Job, PlacementInstance, PlacementSolution

#: ``pick(pool, job)`` returns the GPUs the policy gives ``job`` among the ``pool``'s free ones.
Pick = Callable[[FreePool, Job], Sequence[int]]


def free_pool(instance: PlacementInstance) -> FreePool:
    """The round's free GPUs: all GPUs not held by sticky jobs at the start."""
    free = np.ones(instance.num_gpus, dtype=bool)
    free[[g for g in instance.unavailable if 0 <= g < instance.num_gpus]] = False
    return FreePool(instance.gpus_per_node, free)


def allocate(instance: PlacementInstance, jobs: Sequence[Job], pick: Pick) -> PlacementSolution:
    """Give each job of ``jobs``, in that order, the GPUs ``pick`` chooses among those
    still free; the deadline in force (:mod:`packgap.deadline`) is checked per job."""
    pool = free_pool(instance)
    allocations: dict[str, tuple[int, ...]] = {}
    for job in jobs:
        check()
        gpus = tuple(pick(pool, job))
        allocations[job.id] = gpus
        pool.take(gpus)
    return PlacementSolution(allocations)
