"""Brute-force planning optimum: every assignment of groups to GPUs, every order on each GPU.

From the family's definition (CUCKOO section 3.3.3, :mod:`packgap.planning.evaluate`): all
groups are ready at 0, a GPU runs its groups back to back, and the objective is
sum C_g + w sum max(0, C_g - D_g). A GPU's cost depends only on its own groups, so the best
order of every subset of groups on every GPU type is found once by trying all its orders,
and every assignment of groups to GPUs is then priced by those. The winner is rebuilt as a
solution and scored by the evaluator.
"""

from __future__ import annotations

import itertools
import math

from packgap.planning import FAMILY, GpuSequence, PlanningInstance, PlanningSolution


def _best_order(instance: PlanningInstance, k: int, groups: tuple[int, ...]) -> tuple[float, tuple[int, ...]]:
    best, best_order = math.inf, groups
    for order in itertools.permutations(groups):
        clock = cost = 0.0
        for g in order:
            clock += instance.groups[g].times[k]
            cost += clock + instance.tardiness_weight * max(0.0, clock - instance.groups[g].deadline)
        if cost < best:
            best, best_order = cost, order
    return best, best_order


def optimum(instance: PlanningInstance) -> tuple[float, PlanningSolution]:
    gpus = [(k, j) for k, t in enumerate(instance.gpu_types) for j in range(t.count)]
    n = len(instance.groups)
    memo: dict[tuple[int, tuple[int, ...]], tuple[float, tuple[int, ...]]] = {}
    best, best_plan = math.inf, None
    for where in itertools.product(range(len(gpus)), repeat=n):
        plan = []
        cost = 0.0
        for i, (k, _) in enumerate(gpus):
            mine = tuple(g for g in range(n) if where[g] == i)
            if (k, mine) not in memo:
                memo[k, mine] = _best_order(instance, k, mine)
            cost += memo[k, mine][0]
            plan.append(memo[k, mine][1])
        if cost < best:
            best, best_plan = cost, plan
    assert best_plan is not None
    solution = PlanningSolution(
        tuple(
            GpuSequence(instance.gpu_types[k].name, j, tuple(instance.groups[g].id for g in order))
            for (k, j), order in zip(gpus, best_plan, strict=True)
            if order
        )
    )
    FAMILY.validate(instance, solution)
    return FAMILY.evaluate(instance, solution).objective, solution
