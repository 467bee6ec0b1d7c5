"""CP-SAT model of the planning problem with tardiness (built here, solved in ``solvers``).

Each group has one start and end and an optional interval per GPU type, exactly one
present. The M_k identical GPUs of type k are one cumulative resource of capacity M_k
with unit demands: a cumulative schedule of unit intervals always splits onto M_k GPUs
(interval graphs are perfect), and no GPU-index symmetry is left to search.

CP-SAT needs integers: times and deadlines are multiplied by ``time_scale`` and must land
on integers; the tardiness weight must lie on a 1/``WEIGHT_SCALE`` grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from packgap.deadline import check, checked
from packgap.errors import PackgapError
from packgap.planning import PlanningInstance, PlanningSolution, schedule
from packgap.solvers.cpsat import new_model

WEIGHT_SCALE = 1000
TIME_SCALES = (1, 10, 100, 1000)


@dataclass(frozen=True)
class PlanningCpModel:
    model: Any
    starts: list[Any]
    presence: list[list[Any]]  # presence[g][k]
    time_scale: int
    objective_scale: int  # model objective = true objective * time_scale * objective_scale


def time_scale(instance: PlanningInstance) -> int:
    """Smallest scale in TIME_SCALES putting every time and deadline on integers."""
    values = [t for g in instance.groups for t in g.times] + [g.deadline for g in instance.groups]
    for scale in TIME_SCALES:
        if all(abs(v * scale - round(v * scale)) < 1e-9 for v in values):
            return scale
    raise PackgapError(
        "cp-sat needs processing times and deadlines on a 0.001 s grid; this instance has finer "
        "values (use exact-milp or exact-flow instead)"
    )


def build_cpsat(
    instance: PlanningInstance, horn_bound: float | None = None, hint: PlanningSolution | None = None
) -> PlanningCpModel:
    """Build the model.

    ``horn_bound`` (Horn's exact sum-of-completion optimum) adds the valid cut
    sum(end) >= bound, which CP-SAT's propagation does not find on its own; ``hint`` warm-starts
    the search from a plan (measured: without it, single-worker CP-SAT missed the optimum of
    6 groups on 2 identical GPUs within 10 s).
    """
    scale = time_scale(instance)
    weight = instance.tardiness_weight * WEIGHT_SCALE
    if abs(weight - round(weight)) > 1e-9:
        raise PackgapError(f"cp-sat needs tardiness_weight on a 1/{WEIGHT_SCALE} grid, got {instance.tardiness_weight}")
    model = new_model()
    horizon = sum(round(max(g.times) * scale) for g in instance.groups)
    starts, ends, presence, tardiness = [], [], [], []
    intervals_by_type: list[list[Any]] = [[] for _ in instance.gpu_types]
    for g, group in checked(enumerate(instance.groups)):
        start = model.new_int_var(0, horizon, f"s{g}")
        end = model.new_int_var(0, horizon, f"e{g}")
        present = [model.new_bool_var(f"b{g}_{k}") for k in range(len(instance.gpu_types))]
        for k, t in enumerate(group.times):
            interval = model.new_optional_fixed_size_interval_var(start, round(t * scale), present[k], f"i{g}_{k}")
            model.add(end == start + round(t * scale)).only_enforce_if(present[k])
            intervals_by_type[k].append(interval)
        model.add_exactly_one(present)
        late = model.new_int_var(0, horizon, f"t{g}")
        model.add(late >= end - round(group.deadline * scale))
        starts.append(start)
        ends.append(end)
        presence.append(present)
        tardiness.append(late)
    for k, gpu_type in enumerate(instance.gpu_types):
        model.add_cumulative(intervals_by_type[k], [1] * len(intervals_by_type[k]), gpu_type.count)
    if horn_bound is not None:
        model.add(sum(ends) >= math.ceil(horn_bound * scale - 1e-9))
    check()
    if hint is not None:
        add_hint(model, instance, hint, starts, presence, scale)
    model.minimize(WEIGHT_SCALE * sum(ends) + round(weight) * sum(tardiness))
    return PlanningCpModel(model, starts, presence, scale, WEIGHT_SCALE)


def add_hint(
    model: Any,
    instance: PlanningInstance,
    hint: PlanningSolution,
    starts: list[Any],
    presence: list[list[Any]],
    scale: int,
) -> None:
    index = instance.group_index()
    kinds = {name: k for k, name in enumerate(instance.type_names)}
    for slot in schedule(instance, hint):
        g = index[slot.group]
        model.add_hint(starts[g], round(slot.start * scale))
        for k, var in enumerate(presence[g]):
            model.add_hint(var, k == kinds[slot.gpu_type])


def extract_sequences(cp: PlanningCpModel, solver: Any, instance: PlanningInstance) -> dict[tuple[int, int], list[str]]:
    """Split each type's cumulative schedule onto its GPUs (earliest start first, first free GPU)."""
    plans: dict[tuple[int, int], list[str]] = {}
    for k, gpu_type in enumerate(instance.gpu_types):
        chosen = sorted(
            (solver.value(cp.starts[g]), g)
            for g in range(len(instance.groups))
            if solver.boolean_value(cp.presence[g][k])
        )
        free_at = [0.0] * gpu_type.count
        for start, g in chosen:
            j = min((j for j in range(gpu_type.count) if free_at[j] <= start), default=None)
            if j is None:
                raise PackgapError(f"cp-sat schedule on {gpu_type.name} exceeds {gpu_type.count} GPUs")
            free_at[j] = start + round(instance.groups[g].times[k] * cp.time_scale)
            plans.setdefault((k, j), []).append(instance.groups[g].id)
    return plans
