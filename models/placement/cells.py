"""The choices of the exact per-round placement model: one L x V cell per job.

PAL's objective for a job, L x max_g V_g (eq. 1), is not linear in the GPUs chosen. It
becomes linear once each job picks one cell (locality level, PM-score value) of its class's
L x V matrix (section III-C) and may use only GPUs scoring at most that value, and only one
node for a within-node cell (DESIGN.md, "Known structure").

The columns here are the *distinct raw PM-scores* of the job's class among the free GPUs,
not PAL's K-Means bins: then every placement maps to the cell (its locality, its max
score) of exactly its evaluated cost, and the model's optimum equals the evaluator's
optimum. A solution's evaluated cost can only be lower than its cell's (an across cell
whose GPUs happen to share a node, a bin above the max score), never higher.

Cells that cannot host the job are dropped: within-node cells for jobs larger than a node
or with no node holding enough eligible GPUs, across-node cells for one-GPU jobs (one GPU
is always within a node) and any cell with fewer eligible GPUs than the demand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from packgap.deadline import checked
from packgap.placement import Job, PlacementInstance


@dataclass(frozen=True)
class Cell:
    """A job's choice: locality level and the highest PM-score it may use; ``cost`` is
    weight x L x value, the objective coefficient."""

    across: bool
    value: float
    cost: float
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class RoundCells:
    """The model's data: free GPUs, their nodes, each job's feasible cells and the GPUs
    those cells let it use (``usable[j]``)."""

    jobs: tuple[Job, ...]
    free: tuple[int, ...]
    node: dict[int, int]
    cells: tuple[tuple[Cell, ...], ...]
    usable: tuple[tuple[int, ...], ...]

    def pairs(self) -> list[tuple[int, int]]:
        """Every (job index, GPU) the job may use."""
        return [(j, g) for j in range(len(self.jobs)) for g in self.usable[j]]


def round_cells(instance: PlacementInstance, upper_bound: float | None = None) -> RoundCells:
    """The cells of every job; with ``upper_bound`` (the evaluated objective of any feasible
    placement), cells that cannot be part of a placement at most that good are dropped: a
    cell whose cost exceeds the job's cheapest cell by more than ``upper_bound`` minus the
    sum of every job's cheapest cell (each job's cost is at least its cheapest cell's).
    Every placement of objective <= ``upper_bound`` keeps all its cells, so the optimum stays."""
    rc = _all_cells(instance)
    if upper_bound is None:
        return rc
    cheapest = [min(c.cost for c in cells) for cells in rc.cells]
    slack = upper_bound - sum(cheapest) + 1e-9 * max(1.0, abs(upper_bound))
    kept = tuple(
        tuple(c for c in cells if c.cost - low <= slack) for cells, low in zip(rc.cells, cheapest, strict=True)
    )
    return _with_cells(rc, kept)


def _with_cells(rc: RoundCells, cells: tuple[tuple[Cell, ...], ...]) -> RoundCells:
    usable = tuple(max((c.eligible for c in job_cells), key=len, default=()) for job_cells in cells)
    return RoundCells(rc.jobs, rc.free, rc.node, cells, usable)


def _all_cells(instance: PlacementInstance) -> RoundCells:
    free = tuple(instance.free_gpus())
    node = {g: instance.node_of(g) for g in free}
    classes = {job.job_class for job in instance.jobs}
    columns = {c: _class_columns(instance.pm_scores[c], free, node) for c in checked(classes, 1)}
    per_job = []
    for job in checked(instance.jobs, 1):
        weight, penalty = instance.weight(job), instance.penalty(job)
        cells = []
        for value, eligible, most_on_a_node in columns[job.job_class]:
            if len(eligible) < job.gpus:
                continue
            if job.gpus <= instance.gpus_per_node and most_on_a_node >= job.gpus:
                cells.append(Cell(False, value, weight * value, eligible))
            if job.gpus > 1:
                cells.append(Cell(True, value, weight * penalty * value, eligible))
        per_job.append(tuple(cells))
    return _with_cells(RoundCells(instance.jobs, free, node, (), ()), tuple(per_job))


def _class_columns(
    scores: Sequence[float], free: tuple[int, ...], node: dict[int, int]
) -> list[tuple[float, tuple[int, ...], int]]:
    """One class's L x V columns: per distinct PM-score ``value`` of the free GPUs, the GPUs
    scoring at most ``value`` (in ``free``'s order) and the most of them on one node.

    Computed once per class and shared by its jobs: per job it took jobs x values x GPUs steps,
    140 s for 300 jobs on 2,048 GPUs."""
    on_node: dict[int, int] = {}
    most = 0
    columns = []
    gpus, their_scores = np.array(free, dtype=int), np.array([scores[g] for g in free])
    by_score = sorted(free, key=lambda g: scores[g])
    for i, g in checked(enumerate(by_score)):
        on_node[node[g]] = on_node.get(node[g], 0) + 1
        most = max(most, on_node[node[g]])
        if i + 1 == len(by_score) or scores[by_score[i + 1]] != scores[g]:
            value = scores[g]
            columns.append((value, tuple(gpus[their_scores <= value].tolist()), most))
    return columns
