"""The loop every per-round placement policy shares: jobs one by one, GPUs from a free list."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from packgap.placement import Job, PlacementInstance, PlacementSolution

#: ``pick(free, job)`` returns the GPUs the policy gives ``job`` among the ``free`` ones.
Pick = Callable[[list[int], Job], Sequence[int]]


def allocate(instance: PlacementInstance, jobs: Sequence[Job], pick: Pick) -> PlacementSolution:
    """Give each job of ``jobs``, in that order, the GPUs ``pick`` chooses among those
    still free (all GPUs not held by sticky jobs at the start)."""
    free = instance.free_gpus()
    allocations: dict[str, tuple[int, ...]] = {}
    for job in jobs:
        gpus = tuple(int(g) for g in pick(free, job))
        allocations[job.id] = gpus
        taken = set(gpus)
        free = [g for g in free if g not in taken]
    return PlacementSolution(allocations)
