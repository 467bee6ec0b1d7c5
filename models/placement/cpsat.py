"""Per-round placement model in CP-SAT: the MILP of ``packgap.models.placement.milp`` with Boolean
variables. CP-SAT needs integer costs: each cell cost is floored to a multiple of
``resolution``, so the model's objective x resolution never exceeds a placement's true cost
and its proven bound x resolution is a valid lower bound on the true optimum. Its optimum is the
true one only when no cost was floored (``exact``); otherwise it is within jobs x resolution."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from packgap.deadline import check, checked
from packgap.models.placement.cells import RoundCells
from packgap.placement import PlacementInstance
from packgap.solvers.cpsat import new_model
from packgap.solvers.flow import integer_costs


@dataclass(frozen=True)
class PlacementCpModel:
    model: Any
    z: dict[tuple[int, int], Any]
    x: dict[tuple[int, int], Any]
    resolution: float
    #: True when every cell cost lies on the resolution grid (nothing was floored).
    exact: bool


def build_cpsat(instance: PlacementInstance, rc: RoundCells, resolution: float = 1e-6) -> PlacementCpModel:
    model = new_model()
    jobs = range(len(rc.jobs))
    nodes = sorted(set(rc.node.values()))
    z = {(j, c): model.new_bool_var(f"z{j}_{c}") for j in jobs for c in range(len(rc.cells[j]))}
    x = {(j, g): model.new_bool_var(f"x{j}_{g}") for j, g in checked(rc.pairs(), every=4096)}
    u = {(j, k): model.new_bool_var(f"u{j}_{k}") for j in jobs for k in nodes}
    for j in jobs:
        check()
        cells = rc.cells[j]
        scores = instance.pm_scores[rc.jobs[j].job_class]
        model.add_exactly_one(z[j, c] for c in range(len(cells)))
        model.add(sum(x[j, g] for g in rc.usable[j]) == rc.jobs[j].gpus)
        model.add(sum(u[j, k] for k in nodes) == sum(z[j, c] for c, cell in enumerate(cells) if not cell.across))
        across = [z[j, c] for c, cell in enumerate(cells) if cell.across]
        for g in rc.usable[j]:
            model.add_bool_or([x[j, g].Not(), *(z[j, c] for c, cell in enumerate(cells) if cell.value >= scores[g])])
            model.add_bool_or([x[j, g].Not(), u[j, rc.node[g]], *across])
    for g in checked(rc.free):
        model.add_at_most_one(x[j, g] for j in jobs if (j, g) in x)
    raw = np.array([rc.cells[j][c].cost for j, c in z])
    costs = integer_costs(raw, resolution)
    model.minimize(sum(int(k) * var for k, var in zip(costs, z.values(), strict=True)))
    exact = bool(np.all(costs * resolution == raw))
    return PlacementCpModel(model, z, x, resolution, exact)


def extract(cp: PlacementCpModel, solver: Any, rc: RoundCells) -> tuple[dict[str, tuple[int, ...]], list[int]]:
    """The GPUs of every job and the index of the cell it chose."""
    allocations, chosen = {}, []
    for j, job in enumerate(rc.jobs):
        allocations[job.id] = tuple(g for g in rc.usable[j] if solver.boolean_value(cp.x[j, g]))
        cells = range(len(rc.cells[j]))
        chosen.append(next(c for c in cells if solver.boolean_value(cp.z[j, c])))
    return allocations, chosen
