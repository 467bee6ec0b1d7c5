"""Positional MILP of the planning problem with tardiness (Pyomo; solved elsewhere).

Each GPU m (type k, index j) has positions q = 1..Q from the front. ``x[g, m, q]`` places
group g there; ``C[m, q]`` is the completion time of position q (cumulative processing);
group g's completion ``Cg[g]`` and tardiness ``T[g]`` follow with big-M linking.

Objective: sum_g Cg + w * sum_g T, the evaluator's objective.

Strengthening (DESIGN.md: "formulation strength decides everything"):

* ``horn_bound``: sum_g Cg >= the exact R||sum C optimum from Horn's flow, a valid
  inequality that gives the LP relaxation the whole completion-time part of the optimum.
* Identical GPUs: GPU j of a type holds at least as many groups as GPU j + 1 (symmetry).
* Positions fill from the front (q + 1 used only if q is used).
"""

from __future__ import annotations

import pyomo.environ as pyo

from packgap.planning import PlanningInstance


def machines(instance: PlanningInstance) -> list[tuple[int, int]]:
    return [(k, j) for k, t in enumerate(instance.gpu_types) for j in range(t.count)]


def build_milp(instance: PlanningInstance, horn_bound: float | None = None) -> pyo.ConcreteModel:
    """Build the model; ``horn_bound`` (exact sum-of-completion optimum) adds the valid cut."""
    n = len(instance.groups)
    ms = machines(instance)
    model = pyo.ConcreteModel(name=f"planning-milp:{instance.name}")
    model.G = pyo.RangeSet(0, n - 1)
    model.M = pyo.RangeSet(0, len(ms) - 1)
    model.Q = pyo.RangeSet(1, n)
    big_m = sum(max(g.times) for g in instance.groups)
    model.x = pyo.Var(model.G, model.M, model.Q, domain=pyo.Binary)
    model.C = pyo.Var(model.M, pyo.RangeSet(0, n), bounds=(0, big_m))
    model.Cg = pyo.Var(model.G, bounds=(0, big_m))
    model.T = pyo.Var(model.G, bounds=(0, big_m))
    add_assignment(model, n, ms)
    add_position_times(model, instance, ms)
    add_tardiness(model, instance, big_m)
    add_symmetry_breaking(model, ms)
    if horn_bound is not None:
        model.horn = pyo.Constraint(expr=sum(model.Cg[g] for g in model.G) >= horn_bound)
    w = instance.tardiness_weight
    model.objective = pyo.Objective(
        expr=sum(model.Cg[g] for g in model.G) + w * sum(model.T[g] for g in model.G),
        sense=pyo.minimize,
    )
    return model


def add_assignment(model: pyo.ConcreteModel, n: int, ms: list[tuple[int, int]]) -> None:
    """Each group exactly once; each position at most once; positions fill from the front."""
    model.once = pyo.Constraint(model.G, rule=lambda m, g: sum(m.x[g, i, q] for i in m.M for q in m.Q) == 1)
    model.slot = pyo.Constraint(model.M, model.Q, rule=lambda m, i, q: sum(m.x[g, i, q] for g in m.G) <= 1)
    model.front = pyo.Constraint(
        model.M,
        pyo.RangeSet(1, n - 1),
        rule=lambda m, i, q: sum(m.x[g, i, q + 1] for g in m.G) <= sum(m.x[g, i, q] for g in m.G),
    )


def add_position_times(model: pyo.ConcreteModel, instance: PlanningInstance, ms: list[tuple[int, int]]) -> None:
    """C[m, q] = C[m, q - 1] + processing time of the group at (m, q); C[m, 0] = 0."""
    model.start = pyo.Constraint(model.M, rule=lambda m, i: m.C[i, 0] == 0)
    model.cumulate = pyo.Constraint(
        model.M,
        model.Q,
        rule=lambda m, i, q: (
            m.C[i, q] == m.C[i, q - 1] + sum(instance.groups[g].times[ms[i][0]] * m.x[g, i, q] for g in m.G)
        ),
    )


def add_tardiness(model: pyo.ConcreteModel, instance: PlanningInstance, big_m: float) -> None:
    """Cg >= C[m, q] when g sits at (m, q); T >= Cg - deadline."""
    model.link = pyo.Constraint(
        model.G,
        model.M,
        model.Q,
        rule=lambda m, g, i, q: m.Cg[g] >= m.C[i, q] - big_m * (1 - m.x[g, i, q]),
    )
    model.late = pyo.Constraint(model.G, rule=lambda m, g: m.T[g] >= m.Cg[g] - instance.groups[g].deadline)


def add_symmetry_breaking(model: pyo.ConcreteModel, ms: list[tuple[int, int]]) -> None:
    """GPU j of a type carries at least as many groups as GPU j + 1 of that type."""
    pairs = [i for i in range(len(ms) - 1) if ms[i][0] == ms[i + 1][0]]
    model.symmetry = pyo.Constraint(
        pairs,
        rule=lambda m, i: (
            sum(m.x[g, i, q] for g in m.G for q in m.Q) >= sum(m.x[g, i + 1, q] for g in m.G for q in m.Q)
        ),
    )


def extract_sequences(model: pyo.ConcreteModel, instance: PlanningInstance) -> dict[tuple[int, int], list[str]]:
    """(type index, GPU index) -> group ids in position order, read from ``x``."""
    ms = machines(instance)
    plans: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for (g, i, q), var in model.x.items():
        if var.value is not None and var.value > 0.5:
            plans.setdefault(ms[i], []).append((q, instance.groups[g].id))
    return {m: [gid for _, gid in sorted(p)] for m, p in plans.items()}
