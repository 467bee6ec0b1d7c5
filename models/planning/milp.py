"""Positional MILP of the planning problem with tardiness, without big-M (issue 11, item 3).

Horn's positional view (Horn 1973; Bruno, Coffman and Sethi 1974), per GPU: ``x[g, m, r]``
puts group g at position r *from the last* on GPU m (type k). Counted from the end, a
position's completion time is linear in x,

    C[m, r] = sum over positions r' >= r of sum_g p_gk x[g, m, r'],

and so is the tardiness of whoever sits there, ``T[m, r] >= C[m, r] - sum_g d_g x[g, m, r]``
(an empty position has ``C = 0`` when nothing precedes it). The sum of completion times is
Horn's ``sum r p_gk x[g, m, r]``. The objective ``sum r p x + w sum T`` is the evaluator's
for every plan whose occupied positions are 1..q; a plan with a gap only costs more, so the
optimum has none. No big-M anywhere: the LP relaxation contains Horn's assignment (exact for
the sum of completion times), where the former positional model linked completions to
groups by big-M rows and needed Horn's bound as an extra cut.

Strengthening: positions fill from 1 upward, and GPU j of a type holds at least as many
groups as GPU j + 1 (identical GPUs are interchangeable). Built as numpy arrays for
:func:`packgap.solvers.matrix.solve_mip`; a plan (e.g. the best heuristic's) becomes a start.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.deadline import check
from packgap.planning import GpuSequence, PlanningInstance, PlanningSolution
from packgap.solvers.matrix import ArrayMip


@dataclass(frozen=True)
class PositionalMilp:
    """The arrays and where each variable block starts: ``x`` (groups x GPUs x positions),
    then ``C`` and ``T`` (GPUs x positions)."""

    mip: ArrayMip
    gpus: list[tuple[int, int]]  # (type index, GPU index)
    positions: int

    def x_index(self, g: int, m: int, r: int) -> int:
        return (g * len(self.gpus) + m) * self.positions + (r - 1)

    @property
    def x_count(self) -> int:
        return self.mip.num_col - 2 * len(self.gpus) * self.positions


def gpus(instance: PlanningInstance) -> list[tuple[int, int]]:
    return [(k, j) for k, t in enumerate(instance.gpu_types) for j in range(t.count)]


class _Rows:
    """Rows collected as (row, column, value) triples with their bounds."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.lower: list[float] = []
        self.upper: list[float] = []

    def add(self, cols: np.ndarray, vals: np.ndarray, lower: float, upper: float) -> None:
        self.rows.append(np.full(len(cols), len(self.lower)))
        self.cols.append(np.asarray(cols))
        self.vals.append(np.asarray(vals, dtype=float))
        self.lower.append(lower)
        self.upper.append(upper)


def build_milp(instance: PlanningInstance) -> PositionalMilp:
    n, ms = len(instance.groups), gpus(instance)
    q = n
    times = np.array([g.times for g in instance.groups], dtype=float)
    deadlines = np.array([g.deadline for g in instance.groups], dtype=float)
    nx = n * len(ms) * q
    x = np.arange(nx).reshape(n, len(ms), q)
    c = nx + np.arange(len(ms) * q).reshape(len(ms), q)
    t = nx + len(ms) * q + np.arange(len(ms) * q).reshape(len(ms), q)
    rows = _Rows()
    for g in range(n):
        rows.add(x[g].ravel(), np.ones(x[g].size), 1.0, 1.0)
    for m, (k, _) in enumerate(ms):
        check()
        for r in range(q):
            rows.add(x[:, m, r], np.ones(n), -np.inf, 1.0)
            # C[m, r] = C[m, r + 1] + processing at r (positions from the last, 0-based here).
            later = [c[m, r + 1]] if r + 1 < q else []
            rows.add(np.r_[c[m, r], later, x[:, m, r]], np.r_[1.0, [-1.0] * len(later), -times[:, k]], 0.0, 0.0)
            rows.add(np.r_[t[m, r], c[m, r], x[:, m, r]], np.r_[1.0, -1.0, deadlines], 0.0, np.inf)
            if r + 1 < q:
                rows.add(np.r_[x[:, m, r], x[:, m, r + 1]], np.r_[np.ones(n), -np.ones(n)], 0.0, np.inf)
        if m + 1 < len(ms) and ms[m + 1][0] == k:
            rows.add(np.r_[x[:, m].ravel(), x[:, m + 1].ravel()], np.r_[np.ones(n * q), -np.ones(n * q)], 0.0, np.inf)
    kinds = np.array([k for k, _ in ms])
    positions = np.arange(1, q + 1, dtype=float)
    cost = np.concatenate(
        [
            (positions[None, None, :] * times[:, kinds][:, :, None]).ravel(),
            np.zeros(len(ms) * q),
            np.full(len(ms) * q, instance.tardiness_weight),
        ]
    )
    return PositionalMilp(_arrays(cost, nx, rows), ms, q)


def _arrays(cost: np.ndarray, integers: int, rows: _Rows) -> ArrayMip:
    row, col, val = (np.concatenate(a) for a in (rows.rows, rows.cols, rows.vals))
    order = np.lexsort((row, col))
    start = np.searchsorted(col[order], np.arange(len(cost) + 1))
    upper = np.concatenate([np.ones(integers), np.full(len(cost) - integers, np.inf)])
    return ArrayMip(
        cost=cost,
        col_lower=np.zeros(len(cost)),
        col_upper=upper,
        integer=np.arange(len(cost)) < integers,
        start=start.astype(np.int32),
        index=row[order].astype(np.int32),
        value=val[order],
        row_lower=np.array(rows.lower),
        row_upper=np.array(rows.upper),
    )


def start_from(instance: PlanningInstance, model: PositionalMilp, plan: PlanningSolution) -> np.ndarray:
    """A full MIP start from a plan: its positions from the last, completions, tardiness."""
    index = instance.group_index()
    where = {(instance.type_names.index(s.gpu_type), s.gpu): s.groups for s in plan.sequences}
    value = np.zeros(model.mip.num_col)
    base, size = model.x_count, len(model.gpus) * model.positions
    for m, (k, j) in enumerate(model.gpus):
        groups = [index[gid] for gid in where.get((k, j), ())]
        clock, done = 0.0, []
        for g in groups:
            clock += instance.groups[g].times[k]
            done.append((g, clock))
        for r, (g, end) in enumerate(reversed(done), start=1):
            value[model.x_index(g, m, r)] = 1.0
            value[base + m * model.positions + r - 1] = end
            value[base + size + m * model.positions + r - 1] = max(0.0, end - instance.groups[g].deadline)
    return value


def extract(instance: PlanningInstance, model: PositionalMilp, values: np.ndarray) -> PlanningSolution:
    """Per GPU, the groups from the first position to the last (largest r first)."""
    chosen = np.flatnonzero(values[: model.x_count] > 0.5)
    n_gpus, q = len(model.gpus), model.positions
    by_gpu: dict[int, list[tuple[int, int]]] = {}
    for i in chosen:
        g, rest = divmod(int(i), n_gpus * q)
        m, r = divmod(rest, q)
        by_gpu.setdefault(m, []).append((r, g))
    sequences = []
    for m, placed in sorted(by_gpu.items()):
        k, j = model.gpus[m]
        ids = tuple(instance.groups[g].id for _, g in sorted(placed, reverse=True))
        sequences.append(GpuSequence(instance.gpu_types[k].name, j, ids))
    return PlanningSolution(tuple(sequences))
