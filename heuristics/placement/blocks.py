"""``pal+blocks``: PAL (section III-C, Algorithm 2) followed by re-sorting its GPUs into
score-ordered blocks within each job type (issue 11, item 2).

PAL hands each job its GPUs one job at a time; two identical jobs (same class, GPU demand,
``L_across`` and weight: one *type*, ``packgap.models.placement.job_types``) may end up with
interleaved PM-scores, so both pay a high worst GPU. Pooling the GPUs of a type's spread jobs
and cutting the pool, sorted by score, into consecutive blocks minimises the sum of the
blocks' worst scores; the jobs that PAL packed on one node are re-sorted only among the same
type's jobs on that node, so they stay packed. Every job's cost ``L x max V`` (eq. 1) can only
fall (a re-sorted block may even land on one node and lose ``L_across``), so ``pal+blocks``
is never worse than ``pal``; measured: 0.6 % (256 GPUs), 2.3 % (1,024) and 1.6 % (27,648)
better on generated rounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from packgap.heuristics.placement.pal import pal
from packgap.heuristics.placement.pm_score import ClassBins
from packgap.models.placement.job_types import blocks, job_types
from packgap.placement import PlacementInstance, PlacementSolution


def resort_blocks(instance: PlacementInstance, solution: PlacementSolution) -> PlacementSolution:
    """Re-sort every type's GPUs into score-ordered blocks: one pool for the type's spread
    jobs, one per node for the jobs it packs there (a type that never gains from packing,
    e.g. single-GPU jobs, has one pool)."""
    allocations = dict(solution.allocations)
    for t in job_types(instance):
        pools: dict[int | None, list[str]] = {}
        for jid in t.jobs:
            nodes = {instance.node_of(g) for g in allocations[jid]}
            packed = t.packs_within(instance.gpus_per_node) and len(nodes) == 1
            pools.setdefault(nodes.pop() if packed else None, []).append(jid)
        for jids in pools.values():
            pool = [g for jid in jids for g in allocations[jid]]
            allocations.update(zip(jids, blocks(pool, t.gpus, instance.pm_scores[t.job_class]), strict=True))
    return PlacementSolution(allocations)


def pal_blocks(
    instance: PlacementInstance, seed: int = 0, *, bins: Mapping[str, ClassBins] | None = None, **params: Any
) -> PlacementSolution:
    """PAL with ``params`` (its keyword arguments), then :func:`resort_blocks`."""
    return resort_blocks(instance, pal(instance, seed, bins=bins, **params))
