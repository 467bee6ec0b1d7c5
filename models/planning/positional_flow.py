"""Horn's positional min-cost flow for sum of completion times on unrelated machines.

A group in the r-th position *from the last* on a machine of type k delays itself and the
r - 1 groups after it, so it contributes r * p_gk to the sum of completion times (Horn 1973;
Bruno, Coffman and Sethi 1974). R||sum C_j is therefore an assignment of groups to
(type, position-from-last) slots. The M_k identical GPUs of type k share one slot node of
capacity M_k (DESIGN.md), which shrinks the network M_k-fold.

With deadlines this flow ignores tardiness; its optimum is still a lower bound on
``sum C + w * sum tardiness`` for every w >= 0, and exact when w = 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from packgap.planning import GpuSequence, PlanningInstance, PlanningSolution
from solvers.flow import integer_costs


@dataclass(frozen=True)
class PositionalFlow:
    """Arcs source -> group -> (type, r) -> sink, with integer costs r * p / resolution."""

    tails: np.ndarray
    heads: np.ndarray
    capacities: np.ndarray
    costs: np.ndarray
    supplies: np.ndarray
    arc_group: np.ndarray  # group index of each group->slot arc, -1 elsewhere
    arc_slot: list[tuple[int, int] | None]  # (type index, r) of each group->slot arc
    resolution: float


def build_positional_flow(instance: PlanningInstance, resolution: float = 1e-6) -> PositionalFlow:
    """The network; costs are floored onto a ``resolution`` grid, so the integer optimum times
    ``resolution`` is a certified lower bound on the true optimum (equal when on the grid)."""
    n = len(instance.groups)
    slots = [(k, r) for k, t in enumerate(instance.gpu_types) for r in range(1, math.ceil(n / t.count) + 1)]
    source, sink = 0, 1 + n + len(slots)
    arcs: list[tuple[int, int, int, float, int, tuple[int, int] | None]] = []
    arcs += [(source, 1 + g, 1, 0.0, -1, None) for g in range(n)]
    arcs += [
        (1 + g, 1 + n + s, 1, r * group.times[k], g, (k, r))
        for g, group in enumerate(instance.groups)
        for s, (k, r) in enumerate(slots)
    ]
    arcs += [(1 + n + s, sink, instance.gpu_types[k].count, 0.0, -1, None) for s, (k, _) in enumerate(slots)]
    tails, heads, caps, costs, arc_group, arc_slot = zip(*arcs, strict=True)
    supplies = np.zeros(sink + 1, dtype=np.int64)
    supplies[source], supplies[sink] = n, -n
    return PositionalFlow(
        np.array(tails),
        np.array(heads),
        np.array(caps),
        integer_costs(np.array(costs), resolution),
        supplies,
        np.array(arc_group),
        list(arc_slot),
        resolution,
    )


def flow_to_solution(instance: PlanningInstance, network: PositionalFlow, flows: np.ndarray) -> PlanningSolution:
    """Turn slot choices into per-GPU sequences.

    At each position-from-last r the j-th group chosen goes to GPU j. Where fewer groups sit
    at r than at r + 1 (possible only for zero-cost ties), a group lands at a *smaller*
    position from last than chosen, so the plan costs no more than the flow.
    """
    at: dict[tuple[int, int], list[int]] = {}
    for arc in np.flatnonzero((network.arc_group >= 0) & (flows > 0)):
        slot = network.arc_slot[arc]
        assert slot is not None
        at.setdefault(slot, []).append(int(network.arc_group[arc]))
    sequences: list[GpuSequence] = []
    for k, gpu_type in enumerate(instance.gpu_types):
        depth = max((r for (kk, r) in at if kk == k), default=0)
        plans: list[list[str]] = [[] for _ in range(gpu_type.count)]
        for r in range(depth, 0, -1):
            for j, g in enumerate(sorted(at.get((k, r), []))):
                plans[j].append(instance.groups[g].id)
        sequences += [GpuSequence(gpu_type.name, j, tuple(p)) for j, p in enumerate(plans) if p]
    return PlanningSolution(tuple(sequences))
