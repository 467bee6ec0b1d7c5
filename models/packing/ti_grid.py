"""Time-indexed relaxation of joint packing: one column per (candidate group, GPU type, start period).

The time axis ``[0, H)`` is cut into ``P`` periods of length ``period``; a column ``(o, p)``
says "option o (a candidate group of :mod:`packgap.models.packing.data` on one GPU type) starts
during period p", and column ``(o, P)``, the *tail*, says "starts at H or later". Every real
schedule maps to exactly one column per group, and the column never charges more than the
schedule pays or uses (every rounding goes in the relaxing direction, issue 11):

* start: rounded down to ``s_low = max(p * period, release)``; completion charged at
  ``s_low + offset`` (eq. 8), a job counted late only if it is late even then (eq. 9);
* capacity (eq. 5): a group started in period p at ``s < (p + 1) * period`` with duration
  D is surely running just before the end of every period q with
  ``(q + 1) * period <= s_low + D``; so row (k, q) charges it ``demand`` for
  ``q = p .. p + L - 1`` with ``L = floor((s_low + D) / period) - p``. The rows state
  eq. 5 at the instants ``(q + 1) * period - eps``, which every feasible schedule meets;
* the tail uses no capacity at all, so the horizon H decides strength, never validity;
* the validator lets a start precede an arrival, and a group begin before the previous
  one on its GPUs ends, by up to ``TOL``; so releases and durations are taken ``TOL`` short.

So the LP (each job in one chosen column; per type and period at most ``M_k`` GPUs) and the
integer program over these columns are relaxations of the packing problem. Floors are
taken a hair low (:data:`EPS`), never high.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from packgap.deadline import checked
from packgap.models.packing.data import Candidate, Weights
from packgap.packing import PackingInstance
from packgap.packing.evaluate import TOL
from packgap.solvers.matrix import Columns

#: Relative slack of every floor and comparison, always taken in the relaxing direction.
EPS = 1e-9


@dataclass(frozen=True)
class Options:
    """Every (candidate, GPU type) where the group may run, as arrays (at most 2 members).

    ``jobs[o]`` holds the member job indices (-1 for the empty second slot of a single),
    ``offsets[o]`` their completion offsets and ``late_after[o]`` the completion beyond
    which the evaluator counts them late (deadline + TOL; +inf for an empty slot).
    """

    candidate: np.ndarray
    kind: np.ndarray
    demand: np.ndarray
    release: np.ndarray
    duration: np.ndarray
    jobs: np.ndarray
    offsets: np.ndarray
    late_after: np.ndarray

    def __len__(self) -> int:
        return len(self.candidate)

    @property
    def size(self) -> np.ndarray:
        return (self.jobs >= 0).sum(axis=1)


def options(instance: PackingInstance, cands: Sequence[Candidate]) -> Options:
    rows = [(c, k) for c, cand in enumerate(cands) for k, d in enumerate(cand.durations) if d is not None]
    n = len(rows)
    jobs = np.full((n, 2), -1, dtype=np.int64)
    offsets = np.zeros((n, 2))
    late_after = np.full((n, 2), np.inf)
    duration = np.zeros(n)  # TOL short (module docstring)
    for o, (c, k) in enumerate(checked(rows)):
        cand = cands[c]
        line, length = cand.offsets[k], cand.durations[k]
        assert line is not None and length is not None
        duration[o] = length - TOL
        for i, (j, off) in enumerate(zip(cand.jobs, line, strict=True)):
            jobs[o, i], offsets[o, i] = j, off
            late_after[o, i] = instance.jobs[j].deadline + TOL
    return Options(
        candidate=np.array([c for c, _ in rows], dtype=np.int64),
        kind=np.array([k for _, k in rows], dtype=np.int64),
        demand=np.array([cands[c].demand for c, _ in rows], dtype=np.int64),
        release=np.array([cands[c].release for c, _ in rows]) - TOL,
        duration=duration,
        jobs=jobs,
        offsets=offsets,
        late_after=late_after,
    )


@dataclass(frozen=True)
class Grid:
    """``periods`` periods of ``period`` seconds; period index ``periods`` is the tail."""

    period: float
    periods: int

    @property
    def horizon(self) -> float:
        return self.period * self.periods

    def halved(self) -> Grid:
        return Grid(self.period / 2, self.periods * 2)


def first_period(opts: Options, grid: Grid) -> np.ndarray:
    """The earliest period an option may start in (rounded down: never misses one)."""
    p = np.floor(opts.release / grid.period * (1 - EPS) - EPS).astype(np.int64)
    return np.clip(p, 0, grid.periods)


@dataclass(frozen=True)
class ColumnSet:
    """A set of columns ``(option[i], period[i])`` with their start floor, cost and length."""

    option: np.ndarray
    period: np.ndarray
    start: np.ndarray
    cost: np.ndarray
    length: np.ndarray

    def __len__(self) -> int:
        return len(self.option)

    def subset(self, keep: np.ndarray) -> ColumnSet:
        return ColumnSet(self.option[keep], self.period[keep], self.start[keep], self.cost[keep], self.length[keep])


def start_cost(opts: Options, option: np.ndarray, start: np.ndarray, weights: Weights) -> np.ndarray:
    """The objective part (without the constant) of starting ``option`` at ``start``."""
    completion = start[:, None] + opts.offsets[option]
    members = opts.jobs[option] >= 0
    late = (completion > opts.late_after[option] * (1 + EPS) + EPS) & members
    return weights.completion * (completion * members).sum(axis=1) + weights.late * late.sum(axis=1)


def columns(opts: Options, grid: Grid, weights: Weights, option: np.ndarray, period: np.ndarray) -> ColumnSet:
    """The columns ``(option, period)`` with their rounded start, cost and capacity length."""
    start = np.maximum(period * grid.period, opts.release[option])
    start = np.where(period >= grid.periods, np.maximum(grid.horizon, opts.release[option]), start)
    ends = np.floor((start + opts.duration[option]) / grid.period * (1 - EPS) - EPS).astype(np.int64)
    length = np.clip(np.minimum(ends, grid.periods) - period, 0, None)
    return ColumnSet(option, period, start, start_cost(opts, option, start, weights), length)


def all_columns(opts: Options, grid: Grid, weights: Weights) -> ColumnSet:
    """Every column of every option: its periods from the first allowed one, and the tail."""
    first = first_period(opts, grid)
    count = grid.periods + 1 - first
    option = np.repeat(np.arange(len(opts)), count)
    offset = np.arange(len(option)) - np.repeat(np.cumsum(count) - count, count)
    return columns(opts, grid, weights, option, np.repeat(first, count) + offset)


def refine(opts: Options, grid: Grid, weights: Weights, kept: ColumnSet) -> tuple[Grid, ColumnSet, np.ndarray]:
    """Halve the period: each kept column splits into the two half periods it covers
    (those an option can start in), the tail stays the tail (same horizon). Also returns
    each new column's parent (index into ``kept``)."""
    fine = grid.halved()
    inner = np.flatnonzero(kept.period < grid.periods)
    tail = np.flatnonzero(kept.period >= grid.periods)
    parent = np.concatenate([np.repeat(inner, 2), tail])
    period = np.concatenate(
        [(2 * kept.period[inner, None] + np.arange(2)[None, :]).ravel(), np.full(len(tail), fine.periods)]
    )
    option = kept.option[parent]
    ok = period >= first_period(opts, fine)[option]
    return fine, columns(opts, fine, weights, option[ok], period[ok]), parent[ok]


@dataclass(frozen=True)
class Segments:
    """The capacity constraints kept, as a step (flow) formulation.

    For type k the sorted *events* ``events[k]`` are the periods where some column's
    occupied run starts or ends; segment i runs from event i to the next, and the same
    columns run all through it, so one constraint per segment holds every period's.
    LP layout: a usage variable ``U_i`` in ``[0, M_k]`` per segment and one balance row
    ``U_i - U_(i-1) - (demand started at event i) + (demand ended at event i) = 0``: a
    column costs 2 nonzeros, not one per period (Pritsker, Watters and Wolfe 1969 use the
    same step variables). The price of segment i is the reduced cost of ``U_i``.
    """

    jobs: int
    events: tuple[np.ndarray, ...]

    @property
    def first(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum([len(e) for e in self.events])])

    def __len__(self) -> int:
        return int(self.first[-1])

    def span(self, opts: Options, cols: ColumnSet) -> tuple[np.ndarray, np.ndarray]:
        """Per column, the segments ``lo .. hi - 1`` it occupies (global segment indices)."""
        kind = opts.kind[cols.option]
        lo, hi = np.zeros(len(cols), dtype=np.int64), np.zeros(len(cols), dtype=np.int64)
        first = self.first
        for k, events in enumerate(self.events):
            on = kind == k
            lo[on] = first[k] + np.searchsorted(events, cols.period[on], side="left")
            hi[on] = first[k] + np.searchsorted(events, cols.period[on] + cols.length[on], side="left")
        busy = cols.length > 0
        return np.where(busy, lo, 0), np.where(busy, hi, 0)

    def usage_columns(self, counts: np.ndarray) -> Columns:
        """The ``U_i`` columns: +1 in balance row i, -1 in row i + 1 of the same type."""
        n = len(self)
        last = np.zeros(n, dtype=bool)
        last[self.first[1:][np.diff(self.first) > 0] - 1] = True
        count = np.where(last, 1, 2)
        starts = np.concatenate([[0], np.cumsum(count)])
        rows = np.repeat(np.arange(n), count) + (np.arange(starts[-1]) - np.repeat(starts[:-1], count))
        values = np.where(np.arange(starts[-1]) - np.repeat(starts[:-1], count) == 0, 1.0, -1.0)
        upper = np.repeat(counts, np.diff(self.first)).astype(float)
        return Columns(np.zeros(n), np.zeros(n), upper, starts, self.jobs + rows, values)


def usage(opts: Options, segments: Segments, cols: ColumnSet, x: np.ndarray) -> np.ndarray:
    """The usage variables' values for column values ``x`` (GPUs in use per segment)."""
    lo, hi = segments.span(opts, cols)
    step = np.zeros(len(segments) + 1)
    np.add.at(step, lo, x * opts.demand[cols.option])
    np.add.at(step, hi, -x * opts.demand[cols.option])
    return np.cumsum(step)[:-1]


def segments_for(opts: Options, types: int, jobs: int, cols: ColumnSet) -> Segments:
    """The events of ``cols``: starts and ends of their occupied runs, per type."""
    busy = cols.length > 0
    kind = opts.kind[cols.option][busy]
    points = np.concatenate([cols.period[busy], (cols.period + cols.length)[busy]])
    kinds = np.concatenate([kind, kind])
    return Segments(jobs, tuple(np.unique(points[kinds == k]) for k in range(types)))


def to_solver(opts: Options, segments: Segments, cols: ColumnSet) -> Columns:
    """CSC arrays of ``cols``: 1 in each member's job row; -demand in the balance row of the
    segment it starts in, +demand in that of the segment after its run."""
    members = opts.jobs[cols.option]
    size = (members >= 0).sum(axis=1)
    lo, hi = segments.span(opts, cols)
    busy = (cols.length > 0).astype(np.int64)
    count = size + 2 * busy
    starts = np.concatenate([[0], np.cumsum(count)])
    within = np.arange(starts[-1]) - np.repeat(starts[:-1], count)
    col = np.repeat(np.arange(len(cols)), count)
    is_job = within < size[col]
    at_start = within == size[col]
    demand = opts.demand[cols.option][col].astype(float)
    index = np.where(is_job, members[col, np.minimum(within, 1)], segments.jobs + np.where(at_start, lo[col], hi[col]))
    values = np.where(is_job, 1.0, np.where(at_start, -demand, demand))
    return Columns(cols.cost, np.zeros(len(cols)), np.full(len(cols), math.inf), starts, index, values)
