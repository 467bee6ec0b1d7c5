"""Per-round placement MILP (Pyomo; solved by ``packgap.solvers.pyomo_models``).

Variables: ``z[j, c]`` job j takes cell c (``cells.round_cells``); ``x[j, g]`` job j runs
on free GPU g; ``u[j, k]`` job j's within-node cell uses node k.

* one cell per job: sum_c z[j, c] = 1
* demand: sum_g x[j, g] = N_j; each GPU at most once: sum_j x[j, g] <= 1
* score: x[j, g] <= sum of z[j, c] over cells whose value is >= g's score
* within-node: sum_k u[j, k] = sum of z over within cells; x[j, g] <= u[j, node(g)] +
  sum of z over across cells
* threshold capacity (valid, tightens the LP): the GPUs scoring <= value(c) carry N_j
  GPUs of job j whenever j's cell value is <= value(c): sum of x over c's eligible GPUs
  >= N_j x sum of z[j, d] over cells d with value(d) <= value(c)

Objective: sum_jc cost[j, c] z[j, c] = sum of weight x L x V over jobs (eq. 1).
"""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo

from packgap.deadline import check
from packgap.models.placement.cells import RoundCells
from packgap.models.rows import add_rows
from packgap.placement import PlacementInstance


def build_milp(instance: PlacementInstance, rc: RoundCells) -> pyo.ConcreteModel:
    """The model; its rows are built under the deadline in force (:mod:`packgap.models.rows`)."""
    model = pyo.ConcreteModel(name=f"placement-milp:{instance.name}")
    jobs = range(len(rc.jobs))
    pairs = [(j, c) for j in jobs for c in range(len(rc.cells[j]))]
    nodes = sorted(set(rc.node.values()))
    uses = rc.pairs()
    z = model.z = pyo.Var(pairs, domain=pyo.Binary)
    x = model.x = pyo.Var(uses, domain=pyo.Binary)
    u = model.u = pyo.Var([(j, k) for j in jobs for k in nodes], domain=pyo.Binary)
    add_rows(model, "one_cell", jobs, lambda j: sum(z[j, c] for c in range(len(rc.cells[j]))) == 1)
    add_rows(model, "demand", jobs, lambda j: sum(x[j, g] for g in rc.usable[j]) == rc.jobs[j].gpus)
    users: dict[int, list[int]] = {}
    for j, g in uses:
        users.setdefault(g, []).append(j)
    add_rows(model, "gpu_once", sorted(users), lambda g: sum(x[j, g] for j in users[g]) <= 1)
    scores = {j: instance.pm_scores[rc.jobs[j].job_class] for j in jobs}
    add_rows(
        model,
        "score",
        uses,
        lambda j, g: x[j, g] <= sum(z[j, c] for c, cell in enumerate(rc.cells[j]) if cell.value >= scores[j][g]),
    )
    add_rows(
        model,
        "one_node",
        jobs,
        lambda j: sum(u[j, k] for k in nodes) == sum(z[j, c] for c, cell in enumerate(rc.cells[j]) if not cell.across),
    )
    add_rows(
        model,
        "locality",
        uses,
        lambda j, g: x[j, g] <= u[j, rc.node[g]] + sum(z[j, c] for c, cell in enumerate(rc.cells[j]) if cell.across),
    )
    add_rows(
        model,
        "capacity",
        pairs,
        lambda j, c: (
            sum(x[j, g] for g in rc.cells[j][c].eligible)
            >= rc.jobs[j].gpus
            * sum(z[j, d] for d, cell in enumerate(rc.cells[j]) if cell.value <= rc.cells[j][c].value)
        ),
    )
    check()
    model.objective = pyo.Objective(expr=sum(rc.cells[j][c].cost * z[j, c] for j, c in pairs), sense=pyo.minimize)
    return model


def extract(model: pyo.ConcreteModel, rc: RoundCells) -> tuple[dict[str, tuple[int, ...]], list[int]]:
    """The GPUs of every job and the index of the cell it chose."""
    allocations, chosen = {}, []
    for j, job in enumerate(rc.jobs):
        allocations[job.id] = tuple(g for g in rc.usable[j] if pyo.value(model.x[j, g]) > 0.5)
        picks = [pyo.value(model.z[j, c]) for c in range(len(rc.cells[j]))]
        chosen.append(int(np.argmax(picks)))
    return allocations, chosen
