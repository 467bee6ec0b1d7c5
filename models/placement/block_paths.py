"""Per-round placement MILP over job types and score-ordered blocks (issue 11, item 2).

PAL's round objective, sum of weight x L x max V over jobs (eq. 1), scores raw PM-scores,
so GPUs are not interchangeable. Two exact reductions (``packgap.models.placement.job_types``) make
it linear without binning: identical jobs merge into types, and a type's spread jobs take
their pool of GPUs in score order, ``N`` at a time, each block paying the score of its last
(worst) GPU.

*Block paths.* For a type of ``N``-GPU jobs, walk the free GPUs in ascending order of the
class's PM-score; the state is the number of GPUs taken since the last complete block
(0..N-1). At each GPU the walk either skips it (state kept) or takes it (state + 1); a take
from state ``N - 1`` completes a block and costs weight x ``L_across`` x that GPU's score.
One unit of flow from (first GPU, 0) to (past the last GPU, 0) is exactly a pool cut into
score-ordered blocks, with its exact cost. The walk is a network, so a type on its own has an
integral LP; the types share GPUs through one capacity row per GPU.

*Within-node choices.* A type whose jobs fit a node (2 <= N <= GPUs per node, ``L_across``
> 1) may also place a job on one node: one binary per (node, N-subset of its free GPUs),
costing weight x the subset's worst score (``L_within`` = 1). Single-GPU jobs never pay
``L_across``.

Rows: flow conservation per type and walk state; per type, completed blocks plus within-node
jobs = the type's job count; per GPU, takes plus within-node subsets <= 1 (= 1 when the
round's demand fills every free GPU, which every placement then does). A spread block whose
GPUs happen to share a node is charged ``L_across`` here and 1 by the evaluator; the model
still has the evaluator's optimum, as that placement's within-node form is also a solution.

Its LP bound equals the best Lagrangian bound of ``packgap.models.placement.block_bound``, but simplex
is slow on it (256 GPUs, 50 jobs: 60 k columns, 90 s simplex, 8 s interior point, here), so
the exact method builds it only after reduced-cost pruning (``packgap.models.placement.pruning``),
to prove optimality on rounds where that leaves a small model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.models.placement.job_types import JobType, blocks, job_types, score_order, within_subsets
from packgap.models.placement.pruning import Kept
from packgap.placement import PlacementInstance, PlacementSolution
from packgap.solvers.matrix import ArrayMip


@dataclass(frozen=True)
class TypeColumns:
    """Where one type lives in the model: ``take[v, r]`` / ``skip[v, r]`` are the columns of the
    walk's arcs at the ``v``-th GPU of ``order`` from state ``r`` (-1: pruned, unreachable);
    ``subsets`` are the within-node GPU subsets, in column order from ``first_subset``."""

    job_type: JobType
    order: tuple[int, ...]
    take: np.ndarray
    skip: np.ndarray
    subsets: tuple[tuple[int, ...], ...]
    first_subset: int


@dataclass(frozen=True)
class BlockModel:
    instance: PlacementInstance
    mip: ArrayMip
    types: tuple[TypeColumns, ...]


class _Columns:
    """Growing column-wise triplets (column, row, value) and per-column data."""

    def __init__(self) -> None:
        self.cols: list[np.ndarray] = []
        self.rows: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.cost: list[np.ndarray] = []
        self.integer: list[np.ndarray] = []
        self.count = 0

    def add(self, n: int, cost: np.ndarray, integer: bool) -> np.ndarray:
        ids = np.arange(self.count, self.count + n)
        self.count += n
        self.cost.append(np.asarray(cost, dtype=float))
        self.integer.append(np.full(n, integer))
        return ids

    def entries(self, cols: np.ndarray, rows: np.ndarray, value: float) -> None:
        self.cols.append(cols)
        self.rows.append(rows)
        self.vals.append(np.full(len(cols), value))


def _walk(
    model: _Columns,
    t: JobType,
    order: np.ndarray,
    scores: np.ndarray,
    rows: tuple[np.ndarray, int, int],
    take_ok: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The walk's arcs of one type over the GPUs ``order`` (``take_ok[i, r]``: the take of the
    ``i``-th from state ``r`` survives pruning); returns its take / skip column tables and
    the next free row."""
    gpu_row, count_row, next_row = rows
    n, size = len(order), t.gpus
    v = np.arange(n + 1)[:, None]
    r = np.arange(size)[None, :]
    alive = (r <= v) & ((size - r) % size <= n - v)
    node_row = np.full((n + 1, size), -1)
    interior = alive.copy()
    interior[n, :] = False
    node_row[interior] = next_row + np.arange(int(interior.sum()))
    next_row += int(interior.sum())
    tables = []
    for step in (1, 0):
        head = np.broadcast_to((r + step) % size, (n, size))
        ok = alive[:-1] & np.take_along_axis(alive[1:], head, axis=1)
        if step == 1:
            ok &= take_ok
        vv, rr = np.nonzero(ok)
        completes = (step == 1) & (rr == size - 1)
        ids = model.add(len(vv), np.where(completes, t.across_factor() * scores[vv], 0.0), integer=step == 1)
        model.entries(ids, node_row[vv, rr], -1.0)
        heads = node_row[vv + 1, (rr + step) % size]
        model.entries(ids[heads >= 0], heads[heads >= 0], 1.0)
        if step == 1:
            model.entries(ids, gpu_row[order[vv]], 1.0)
            model.entries(ids[completes], np.full(int(completes.sum()), count_row), 1.0)
        table = np.full((n, size), -1)
        table[vv, rr] = ids
        tables.append(table)
    return tables[0], tables[1], next_row


def build_blocks(instance: PlacementInstance, kept: Kept | None = None) -> BlockModel:
    """The block-path MILP of one round (module docstring), restricted to the takes and
    subsets of ``kept`` when given (``packgap.models.placement.pruning``): a type's walk then visits
    only the GPUs it may take, skipping the others at once."""
    types = job_types(instance)
    free = instance.free_gpus()
    gpu_row = np.full(instance.num_gpus, -1)
    gpu_row[free] = np.arange(len(free))
    next_row = len(free) + len(types)
    model = _Columns()
    lower: list[float] = []
    columns = []
    first_subset = 0
    for i, t in enumerate(types):
        order = np.array(score_order(free, instance.pm_scores[t.job_class]), dtype=np.int64)
        scores = np.asarray(instance.pm_scores[t.job_class])
        take_ok = np.ones((len(order), t.gpus), dtype=bool) if kept is None else kept.take[i]
        levels = np.nonzero(take_ok.any(axis=1))[0]
        source = next_row
        rows = (gpu_row, len(free) + i, next_row)
        take, skip, next_row = _walk(model, t, order[levels], scores[order[levels]], rows, take_ok[levels])
        lower.extend(-1.0 if row == source else 0.0 for row in range(source, next_row))
        subsets = within_subsets(instance, t)
        if kept is not None:
            survive = kept.subsets[first_subset : first_subset + len(subsets)]
            first_subset += len(subsets)
            subsets = [s for s, ok in zip(subsets, survive, strict=True) if ok]
        costs = np.array([t.weight * max(scores[g] for g in s) for s in subsets])
        ids = model.add(len(subsets), costs, integer=True)
        for col, s in zip(ids, subsets, strict=True):
            model.entries(np.full(len(s) + 1, col), np.array([*gpu_row[list(s)], len(free) + i]), 1.0)
        first = int(ids[0]) if len(ids) else model.count
        columns.append(TypeColumns(t, tuple(int(g) for g in order[levels]), take, skip, tuple(subsets), first))
    fills = sum(j.gpus for j in instance.jobs) == len(free)
    counts = [float(t.count) for t in types]
    row_lower = np.array([1.0 if fills else 0.0] * len(free) + counts + lower)
    row_upper = np.array([1.0] * len(free) + counts + lower)
    return BlockModel(instance, _assemble(model, row_lower, row_upper), tuple(columns))


def _assemble(model: _Columns, row_lower: np.ndarray, row_upper: np.ndarray) -> ArrayMip:
    cols = np.concatenate(model.cols)
    rows = np.concatenate(model.rows)
    vals = np.concatenate(model.vals)
    keep = rows >= 0
    cols, rows, vals = cols[keep], rows[keep], vals[keep]
    order = np.lexsort((rows, cols))
    start = np.zeros(model.count + 1, dtype=np.int32)
    np.cumsum(np.bincount(cols, minlength=model.count), out=start[1:])
    n = model.count
    return ArrayMip(
        cost=np.concatenate(model.cost),
        col_lower=np.zeros(n),
        col_upper=np.ones(n),
        integer=np.concatenate(model.integer),
        start=start,
        index=rows[order].astype(np.int32),
        value=vals[order],
        row_lower=row_lower,
        row_upper=row_upper,
    )


def start_values(bm: BlockModel, solution: PlacementSolution) -> np.ndarray | None:
    """The model's columns for a placement: each type's one-node jobs (when it may pack
    within a node) as subsets, the rest walked in score order; None when the placement
    needs a pruned arc or subset."""
    inst = bm.instance
    x = np.zeros(bm.mip.num_col)
    for tc in bm.types:
        subset_col = {s: tc.first_subset + i for i, s in enumerate(tc.subsets)}
        pool: set[int] = set()
        for jid in tc.job_type.jobs:
            gpus = tuple(sorted(solution.allocations[jid]))
            within = tc.job_type.packs_within(inst.gpus_per_node) and len({inst.node_of(g) for g in gpus}) == 1
            if not within:
                pool.update(gpus)
            elif gpus in subset_col:
                x[subset_col[gpus]] = 1.0
            else:
                return None
        if not pool <= set(tc.order):
            return None
        state = 0
        for v, g in enumerate(tc.order):
            arc = tc.take if g in pool else tc.skip
            if arc[v, state] < 0:
                return None
            x[arc[v, state]] = 1.0
            state = (state + 1) % tc.job_type.gpus if g in pool else state
    return x


def extract(bm: BlockModel, values: np.ndarray) -> PlacementSolution:
    """The placement of a (near-)integral column vector: within-node subsets as chosen, each
    type's taken GPUs cut into score-ordered blocks."""
    allocations: dict[str, tuple[int, ...]] = {}
    for tc in bm.types:
        t = tc.job_type
        chosen = [s for i, s in enumerate(tc.subsets) if values[tc.first_subset + i] > 0.5]
        taken_cols = tc.take >= 0
        taken = np.zeros(tc.take.shape, dtype=bool)
        taken[taken_cols] = values[tc.take[taken_cols]] > 0.5
        pool = [tc.order[v] for v in np.nonzero(taken.any(axis=1))[0]]
        scores = bm.instance.pm_scores[t.job_class]
        for jid, gpus in zip(t.jobs, [*chosen, *blocks(pool, t.gpus, scores)], strict=True):
            allocations[jid] = gpus
    return PlacementSolution(allocations)
