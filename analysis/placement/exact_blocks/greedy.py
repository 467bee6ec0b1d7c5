"""A second start for the block method: each job in turn, smallest demand first, takes its
cheapest placement on the GPUs still free (``packgap.models.placement.screening.holding``).

PAL picks within K-Means bins, so among the thousands of GPUs of a large cluster's best bin
its choice is by GPU id, not score: on a 5-job round of 27,648 GPUs (13,824 free) pal+blocks
costs 7.73 where this start costs 7.03, the optimum, and only a start that close lets the screen
(``packgap.models.placement.screening``) drop GPUs: 58 kept (measured).
Each job costs a pass over every GPU, so the start is tried only while ``jobs x GPUs`` is
at most :data:`WORK` (720 jobs on 27,648 GPUs: 2.6 s of CPU, measured).
"""

from __future__ import annotations

import numpy as np

from packgap.models.placement.job_types import job_types
from packgap.models.placement.screening import holding
from packgap.placement import PlacementInstance, PlacementSolution

#: Most ``jobs x GPUs`` for which the start is built.
WORK = 20_000_000


def affordable(instance: PlacementInstance) -> bool:
    return len(instance.jobs) * instance.num_gpus <= WORK


def cheapest_first(instance: PlacementInstance) -> PlacementSolution:
    """Jobs by ascending demand (queue order among equals), each on its cheapest free GPUs:
    the best node's best ``N`` or the class's best ``N`` overall (ties by GPU id)."""
    free = np.zeros(instance.num_gpus, dtype=bool)
    free[instance.free_gpus()] = True
    type_of = {jid: t for t in job_types(instance) for jid in t.jobs}
    allocations: dict[str, tuple[int, ...]] = {}
    for job in sorted(instance.jobs, key=lambda j: j.gpus):
        t = type_of[job.id]
        held = holding(instance, free, t)
        pool = free.copy()
        if held.within.min() <= held.spread.min():
            node = int(np.argmin(held.within)) // instance.gpus_per_node
            pool[: node * instance.gpus_per_node] = False
            pool[(node + 1) * instance.gpus_per_node :] = False
        ids = np.flatnonzero(pool)
        scores = np.asarray(instance.pm_scores[t.job_class])[ids]
        chosen = ids[np.argsort(scores, kind="stable")[: t.gpus]]
        allocations[job.id] = tuple(sorted(int(g) for g in chosen))
        free[chosen] = False
    return PlacementSolution(allocations)
