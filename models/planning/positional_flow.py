"""Horn's positional min-cost flow for sum of completion times on unrelated machines.

A group in the r-th position *from the last* on a machine of type k delays itself and the
r - 1 groups after it, so it contributes r * p_gk to the sum of completion times (Horn 1973;
Bruno, Coffman and Sethi 1974). R||sum C_j is therefore an assignment of groups to
(type, position-from-last) slots. The M_k identical GPUs of type k share one slot of
capacity M_k (DESIGN.md), which shrinks the network M_k-fold.

With deadlines this flow ignores tardiness; its optimum is still a lower bound on
``sum C + w * sum tardiness`` for every w >= 0, and exact when w = 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from packgap.planning import GpuSequence, PlanningInstance, PlanningSolution
from packgap.solvers.flow import integer_costs


@dataclass(frozen=True)
class PositionalSlots:
    """Columns (type index, r) with capacity M_k and integer costs r * p / resolution."""

    slots: list[tuple[int, int]]
    costs: np.ndarray  # groups x slots, int64
    capacities: np.ndarray
    resolution: float


def build_positional_slots(instance: PlanningInstance, resolution: float = 1e-6) -> PositionalSlots:
    """The assignment; costs are floored onto a ``resolution`` grid, so the integer optimum times
    ``resolution`` is a certified lower bound on the true optimum (equal when on the grid)."""
    n = len(instance.groups)
    slots = [(k, r) for k, t in enumerate(instance.gpu_types) for r in range(1, math.ceil(n / t.count) + 1)]
    times = np.array([g.times for g in instance.groups], dtype=float)
    kinds = np.array([k for k, _ in slots])
    positions = np.array([r for _, r in slots], dtype=float)
    costs = integer_costs(positions[None, :] * times[:, kinds], resolution, rows=n)
    capacities = np.array([instance.gpu_types[k].count for k, _ in slots])
    return PositionalSlots(slots, costs, capacities, resolution)


def slots_to_solution(instance: PlanningInstance, network: PositionalSlots, column: np.ndarray) -> PlanningSolution:
    """Turn slot choices into per-GPU sequences.

    At each position-from-last r the j-th group chosen goes to GPU j. Where fewer groups sit
    at r than at r + 1 (possible only for zero-cost ties), a group lands at a *smaller*
    position from last than chosen, so the plan costs no more than the flow.
    """
    at: dict[tuple[int, int], list[int]] = {}
    for g, c in enumerate(column):
        at.setdefault(network.slots[int(c)], []).append(g)
    sequences: list[GpuSequence] = []
    for k, gpu_type in enumerate(instance.gpu_types):
        depth = max((r for (kk, r) in at if kk == k), default=0)
        plans: list[list[str]] = [[] for _ in range(gpu_type.count)]
        for r in range(depth, 0, -1):
            for j, g in enumerate(sorted(at.get((k, r), []))):
                plans[j].append(instance.groups[g].id)
        sequences += [GpuSequence(gpu_type.name, j, tuple(p)) for j, p in enumerate(plans) if p]
    return PlanningSolution(tuple(sequences))
