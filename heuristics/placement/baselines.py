"""The baseline placements of PAL's evaluation (section IV-A1).

* Packed ("soft-consolidated", Tiresias = Packed-Sticky, Gandiva = Packed-Non-Sticky):
  minimise the number of nodes a job spans. The node choice is the PAL artifact's packing
  rule (blox-sim-inputs PROVENANCE.md, section 5): the first node with exactly N_j free
  GPUs; else the node with the fewest free GPUs among those with more than N_j; else take
  whole nodes, most free first (lowest id among equals), until N_j GPUs are taken.
* Random ("scattered"): a uniform random N_j-subset of the free GPUs, seeded.

Jobs are placed in the scheduler's queue order (no class sorting). Sticky and non-sticky
differ only across rounds, in which jobs keep their GPUs (the simulator's business): within
one round both flavours make the same choice, so Packed-Sticky and Packed-Non-Sticky (and
the two Random flavours) give the same placement for a round instance.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from packgap.heuristics.placement.allocate import allocate
from packgap.heuristics.placement.free_pool import FreePool
from packgap.placement import PlacementInstance, PlacementSolution


def packed_gpus(free: Sequence[int], demand: int, gpus_per_node: int) -> list[int]:
    """The artifact's packing rule for one job among ``free`` (a round places its jobs
    through one :class:`FreePool` instead)."""
    return pool_packed_gpus(FreePool.of(max(free, default=-1) + 1, gpus_per_node, free), demand)


def pool_packed_gpus(pool: FreePool, demand: int) -> list[int]:
    """The artifact's packing rule among the ``pool``'s free GPUs, taken in ascending id."""
    counts = pool.node_free
    exact = counts == demand
    node = int(exact.argmax())
    if exact[node]:
        return pool.node_gpus(node)
    larger = np.where(counts > demand, counts, np.iinfo(counts.dtype).max)
    node = int(larger.argmin())
    if counts[node] > demand:
        return pool.node_gpus(node)[:demand]
    left = counts.copy()
    taken: list[int] = []
    while len(taken) < demand:
        node = int(left.argmax())
        if left[node] == 0:
            break
        left[node] = 0
        taken += pool.node_gpus(node)[: demand - len(taken)]
    return taken


def packed(instance: PlacementInstance, seed: int = 0) -> PlacementSolution:
    """Packed placement of every job, in queue order; ``seed`` is unused."""
    return allocate(instance, instance.jobs, lambda pool, job: pool_packed_gpus(pool, job.gpus))


def random_placement(instance: PlacementInstance, seed: int = 0) -> PlacementSolution:
    """Random placement of every job, in queue order, from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    return allocate(
        instance,
        instance.jobs,
        lambda pool, job: sorted(rng.choice(pool.gpus(), size=job.gpus, replace=False).tolist()),
    )
