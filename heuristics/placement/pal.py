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

from collections.abc import Mapping
from typing import Literal

from packgap.errors import UnknownNameError
from packgap.heuristics.placement.free_pool import ClassView
from packgap.heuristics.placement.lv_matrix import Traversal
from packgap.heuristics.placement.pm_first import TieBreak, place_by_class
from packgap.heuristics.placement.pm_score import ClassBins
from packgap.placement import PlacementInstance, PlacementSolution

#: Order in which the within-node step looks at nodes: ascending id, or the PAL artifact's
#: most eligible GPUs first (ascending id among equals, its order on CPUs without AVX-512).
NodeOrder = Literal["id", "most-eligible"]
NODE_ORDERS = ("id", "most-eligible")


def pal_gpus(
    view: ClassView,
    demand: int,
    l_across: float,
    traversal: Traversal = "paper",
    tie_break: TieBreak = "gpu",
    node_order: NodeOrder = "id",
) -> list[int]:
    """Algorithm 2 for one job among the free GPUs of ``view`` (its class's ranking).

    No cell's subsets are enumerated: the cheapest N_j-subset of a node among its GPUs
    scoring <= V is its N_j best, so the walk's first packing cell is the best level any node
    reaches with its N_j-th best free GPU, and its node the first to reach it in node order;
    the lexicographically first subset of that worst score is the node's first N_j GPUs by id
    among those scoring no worse. An across-node cell that admits N_j GPUs picks what
    PM-First picks among all free GPUs (its eligible GPUs are whole score levels, the best
    ones)."""
    if node_order not in NODE_ORDERS:
        raise UnknownNameError("node_order", node_order, NODE_ORDERS)
    if 1 < demand <= view.pool.per_node:
        packed = view.packed_pick(demand, node_order == "most-eligible", l_across, traversal)
        if packed is not None:
            return packed
    return view.best(demand, tie_break)


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
        lambda pool, job, b: pal_gpus(
            pool.view(job.job_class, b.scores), job.gpus, instance.penalty(job), traversal, tie_break, node_order
        ),
    )
