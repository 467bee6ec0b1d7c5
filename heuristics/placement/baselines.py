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
from packgap.placement import PlacementInstance, PlacementSolution


def packed_gpus(free: Sequence[int], demand: int, gpus_per_node: int) -> list[int]:
    """The artifact's packing rule for one job; free GPUs are taken in ascending id."""
    by_node: dict[int, list[int]] = {}
    for g in sorted(free):
        by_node.setdefault(g // gpus_per_node, []).append(g)
    exact = [n for n in sorted(by_node) if len(by_node[n]) == demand]
    if exact:
        return by_node[exact[0]]
    larger = [n for n in sorted(by_node) if len(by_node[n]) > demand]
    if larger:
        return by_node[min(larger, key=lambda n: (len(by_node[n]), n))][:demand]
    taken: list[int] = []
    while len(taken) < demand and by_node:
        node = max(by_node, key=lambda n: (len(by_node[n]), -n))
        taken += by_node.pop(node)[: demand - len(taken)]
    return taken


def packed(instance: PlacementInstance, seed: int = 0) -> PlacementSolution:
    """Packed placement of every job, in queue order; ``seed`` is unused."""
    return allocate(instance, instance.jobs, lambda free, job: packed_gpus(free, job.gpus, instance.gpus_per_node))


def random_placement(instance: PlacementInstance, seed: int = 0) -> PlacementSolution:
    """Random placement of every job, in queue order, from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    return allocate(
        instance,
        instance.jobs,
        lambda free, job: sorted(rng.choice(free, size=job.gpus, replace=False).tolist()),
    )
