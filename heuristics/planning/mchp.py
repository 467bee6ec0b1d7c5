"""MCHP: CUCKOO's min-cost heterogeneous placement (section 3.3.3, eq. 13-14, Table 6).

Groups are matched to (GPU type, execution order) slots in a bipartite graph. The edge from
group i to (type X, order n) costs C1 + C2 with

    C1 = (n - 1) * T_X + t_iX                    (eq. 13)
    C2 = max(0, (n - 1) * T_X + t_iX - D_i)      (eq. 14)

where T_X is the average processing time of *all* groups on type X (the paper's
simplification: "we can use the average execution time of all job groups to represent each
group's real executing time") and t_iX the group's own time.

Readings chosen where the paper is silent:

* The paper's example has one GPU per type. With M_X identical GPUs of type X, the slot
  (X, n) takes up to M_X groups (one per GPU), which is the same matching on a network
  M_X times smaller (DESIGN.md, "identical machines share one node").
* Orders run 1..ceil(N / M_X): enough for every group to fit on type X alone.
* Groups matched to the same (X, n) are dealt to X's GPUs in queue order, the GPU whose
  plan ends first taking the next group.
* The matching is solved exactly as a min-cost flow in which the M_X GPUs of type X share
  one (X, n) slot of capacity M_X (costs floored to a 1 us grid). Table 6 has two matchings
  of cost 6; the paper states the one that keeps Group 1 on its cheapest edge. Ties are
  therefore broken in queue order: each group, earliest first, swaps slots with a later
  group whenever the swap leaves the total cost unchanged and gives it a cheaper edge
  (``tie_break="queue"``; ``"none"`` keeps the solver's matching).

Because eq. 13 charges order n on type X the same (n - 1) T_X whichever groups fill the
earlier orders, the total C1 is the same for every permutation of a type's groups over its
orders: the matching decides which type a group runs on, but its order only through C2 and
the tie-break (queue order). ``gpu_order="shortest-first"`` re-sorts each GPU's groups by
their time on it after the matching: not the paper's algorithm, an experiment that measures
what the average-time estimate costs (the planning-gaps reproduction runs it).
"""

from __future__ import annotations

import math

import numpy as np

from packgap.deadline import check, checked
from packgap.errors import PackgapError, UnknownNameError
from packgap.planning import GpuSequence, PlanningInstance, PlanningSolution
from packgap.solvers.flow import capacitated_assignment, integer_costs

#: Edge costs are floored onto this grid (seconds) for the integer min-cost flow.
RESOLUTION_S = 1e-6
#: Each GPU's groups in their matched order (the paper) or re-sorted shortest first.
GPU_ORDERS = ("slots", "shortest-first")


def mchp_slots(instance: PlanningInstance) -> list[tuple[int, int]]:
    """The (type index, order) slots, order 1-based; slot (X, n) holds up to M_X groups."""
    n = len(instance.groups)
    return [
        (k, order)
        for k, gpu_type in enumerate(instance.gpu_types)
        for order in range(1, math.ceil(n / gpu_type.count) + 1)
    ]


def mchp_edge_costs(
    instance: PlanningInstance, deadline_weight: float = 1.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """C1, C2 and C1 + deadline_weight * C2 for every (group, slot) of :func:`mchp_slots`."""
    slots = mchp_slots(instance)
    times = np.array([g.times for g in instance.groups], dtype=float)
    average = times.mean(axis=0)
    kinds = np.array([k for k, _ in slots])
    orders = np.array([n for _, n in slots], dtype=float)
    c1 = (orders - 1.0)[None, :] * average[kinds][None, :] + times[:, kinds]
    deadlines = np.array([g.deadline for g in instance.groups], dtype=float)
    c2 = np.maximum(0.0, c1 - deadlines[:, None])
    return c1, c2, c1 + deadline_weight * c2


def queue_tie_break(costs: np.ndarray, column: np.ndarray) -> np.ndarray:
    """Pairwise swaps that keep the total cost and give the earlier group a cheaper edge."""
    column = column.copy()
    rows = np.arange(len(column))
    for i in checked(range(len(column))):
        later = rows[i + 1 :]
        mine, theirs = costs[i, column[i]], costs[later, column[later]]
        swapped_mine, swapped_theirs = costs[i, column[later]], costs[later, column[i]]
        ok = (swapped_mine + swapped_theirs == mine + theirs) & (swapped_mine < mine)
        if ok.any():
            j = later[ok][np.argmin(swapped_mine[ok])]
            column[i], column[j] = column[j], column[i]
    return column


def mchp(
    instance: PlanningInstance, deadline_weight: float = 1.0, tie_break: str = "queue", gpu_order: str = "slots"
) -> PlanningSolution:
    """Plan groups by MCHP's min-cost matching; ``deadline_weight`` scales C2 (paper: 1)."""
    if tie_break not in ("queue", "none"):
        raise UnknownNameError("tie_break", tie_break, ["queue", "none"])
    if gpu_order not in GPU_ORDERS:
        raise UnknownNameError("gpu_order", gpu_order, list(GPU_ORDERS))
    slots = mchp_slots(instance)
    _, _, cost = mchp_edge_costs(instance, deadline_weight)
    integer = integer_costs(cost, RESOLUTION_S, rows=len(instance.groups))
    capacities = np.array([instance.gpu_types[k].count for k, _ in slots])
    check()
    result = capacitated_assignment(integer, capacities)
    check()
    if result.cost is None:
        raise PackgapError(f"MCHP matching failed with status {result.status}")
    column = queue_tie_break(integer, result.column) if tie_break == "queue" else result.column
    chosen = sorted((slots[c][0], slots[c][1], r) for r, c in enumerate(column))
    plans: list[list[list[int]]] = [[[] for _ in range(t.count)] for t in instance.gpu_types]
    clocks = [[0.0] * t.count for t in instance.gpu_types]
    for k, _, group in chosen:
        gpu = min(range(len(clocks[k])), key=lambda j: (clocks[k][j], j))
        clocks[k][gpu] += instance.groups[group].times[k]
        plans[k][gpu].append(group)
    if gpu_order == "shortest-first":
        plans = [
            [sorted(plan, key=lambda g: (instance.groups[g].times[k], g)) for plan in gpus]
            for k, gpus in enumerate(plans)
        ]
    return PlanningSolution(
        tuple(
            GpuSequence(instance.gpu_types[k].name, j, tuple(instance.groups[g].id for g in plan))
            for k in range(len(plans))
            for j, plan in enumerate(plans[k])
            if plan
        )
    )
