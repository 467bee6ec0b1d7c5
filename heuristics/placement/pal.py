"""PAL placement (section III-C, Algorithm 2).

A job with 1 < N_j <= GPUs-per-node walks its class's L x V matrix (``lv_matrix.traverse``)
with its model's ``L_across``:

* (L_within, V_i): keep the free GPUs whose binned PM-score is <= V_i, find the nodes with
  at least N_j of them, enumerate every N_j-subset of each such node ("GenerateCombs") and
  return the one with the lowest worst PM-score ("GetMinV"; nodes in ascending id, or
  ``node_order="most-eligible"``, subsets in lexicographic order, first minimum wins); if
  no node qualifies, go on.
* (L_across, V_i): if at least N_j free GPUs score <= V_i, return PM-First's pick among
  them; otherwise go on.

Single-GPU jobs and jobs larger than a node go through PM-First (lines 22-25). Jobs are
placed in the same class-sorted order as PM-First (Fig. 4); both are non-sticky.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Literal

from packgap.errors import UnknownNameError
from packgap.heuristics.placement.lv_matrix import Traversal, traverse
from packgap.heuristics.placement.pm_first import TieBreak, place_by_class, pm_first_gpus
from packgap.heuristics.placement.pm_score import ClassBins
from packgap.placement import PlacementInstance, PlacementSolution

#: Order in which the within-node step looks at nodes: ascending id, or the PAL artifact's
#: most eligible GPUs first (ascending id among equals, its order on CPUs without AVX-512).
NodeOrder = Literal["id", "most-eligible"]
NODE_ORDERS = ("id", "most-eligible")


def pal_gpus(
    free: Sequence[int],
    demand: int,
    bins: ClassBins,
    gpus_per_node: int,
    l_across: float,
    traversal: Traversal = "paper",
    tie_break: TieBreak = "gpu",
    node_order: NodeOrder = "id",
) -> list[int]:
    """Algorithm 2 for one job."""
    if node_order not in NODE_ORDERS:
        raise UnknownNameError("node_order", node_order, NODE_ORDERS)
    scores = bins.scores
    if not 1 < demand <= gpus_per_node:
        return pm_first_gpus(free, demand, scores, gpus_per_node, tie_break)
    for cell in traverse(bins.values, l_across, traversal):
        eligible = [g for g in free if scores[g] <= cell.value]
        if cell.across:
            if len(eligible) >= demand:
                return pm_first_gpus(eligible, demand, scores, gpus_per_node, tie_break)
            continue
        by_node: dict[int, list[int]] = {}
        for g in sorted(eligible):
            by_node.setdefault(g // gpus_per_node, []).append(g)
        nodes = sorted(by_node)
        if node_order == "most-eligible":
            nodes.sort(key=lambda k: -len(by_node[k]))
        combos = [
            c for node in nodes if len(by_node[node]) >= demand for c in itertools.combinations(by_node[node], demand)
        ]
        if combos:
            return list(min(combos, key=lambda c: max(scores[g] for g in c)))
    return pm_first_gpus(free, demand, scores, gpus_per_node, tie_break)


def pal(
    instance: PlacementInstance,
    seed: int = 0,
    *,
    bins: Mapping[str, ClassBins] | None = None,
    traversal: Traversal = "paper",
    tie_break: TieBreak = "gpu",
    node_order: NodeOrder = "id",
) -> PlacementSolution:
    """Place every job of the round with PAL; ``seed`` is unused (deterministic)."""
    return place_by_class(
        instance,
        bins,
        lambda free, job, b: pal_gpus(
            free, job.gpus, b, instance.gpus_per_node, instance.penalty(job), traversal, tie_break, node_order
        ),
    )
