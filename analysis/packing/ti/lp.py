"""One level's LP and integer program of :mod:`packgap.analysis.packing.ti.driver` (step formulation; the
matrix layer, :mod:`packgap.solvers.matrix`, on ``--solver``).

:func:`column_generation` solves the LP over a growing subset of the level's *universe*,
pricing the whole universe with :mod:`packgap.models.packing.ti_duals` after every solve (the
Lagrangian bound then is a certificate even when the LP stopped early);
:func:`integer_program` solves the integer program over the universe when it is small (a
bound) or over the columns of least reduced cost (a restricted master heuristic, Joncour et
al. 2010: an answer only). Answers go through LP rounding and the serial schedule.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from packgap.analysis.packing.ti.rounding import round_answer
from packgap.analysis.packing.ti.search import Search
from packgap.models.packing import ti_duals, ti_grid
from packgap.result import Status
from packgap.solvers.matrix import Columns, LpSolution, open_model
from packgap.solvers.outcome import SolveOptions

#: What the best answer costs in the scaled LP (:class:`LevelLp`).
LP_SCALE = 1e4
#: Most segments for which an LP restarts from its last basis (beyond: presolve each time).
WARM_SEGMENTS = 20_000
#: Relative margin taken off HiGHS's integer-program bound (its tolerances are 1e-7 or less
#: on the scaled LP); below the optimality gap of 1e-6, so it can still prove optimality.
MIP_MARGIN = 1e-7


class LevelLp:
    """A level's LP: one artificial column per job (cost above any answer, so that every
    restricted LP is feasible; never part of a bound), the usage columns of the segments,
    then the problem's columns.

    Costs are scaled so that the best answer costs :data:`LP_SCALE`: eq. 10 weights put
    one second of JCT near 1e-5, under HiGHS's absolute dual tolerance (1e-7), which left
    the priced bound 5e-6 (relative) short of the optimum on 20 generated jobs."""

    def __init__(self, search: Search, segments: ti_grid.Segments, options: SolveOptions) -> None:
        n = search.n
        self.search, self.segments = search, segments
        self.scale = LP_SCALE / max(abs(search.ceiling()), 1e-12)
        sides = np.concatenate([np.ones(n), np.zeros(len(segments))])
        self.model = open_model(sides, sides, options)
        cost = np.full(n, (2 * abs(search.ceiling()) + 1.0) * self.scale)
        self.model.add_columns(
            Columns(cost, np.zeros(n), np.full(n, np.inf), np.arange(n + 1), np.arange(n), np.ones(n))
        )
        self.model.add_columns(segments.usage_columns(search.counts))
        self.first = self.model.columns

    def add(self, cols: ti_grid.ColumnSet) -> None:
        arrays = ti_grid.to_solver(self.search.opts, self.segments, cols)
        self.model.add_columns(replace(arrays, cost=arrays.cost * self.scale))

    def full(self, x: np.ndarray, cols: ti_grid.ColumnSet) -> np.ndarray:
        """A value for every LP column from the problem columns' values ``x`` (``cols`` being
        all the problem columns, in order): artificial 0, usage as ``x`` implies."""
        used = ti_grid.usage(self.search.opts, self.segments, cols, x)
        return np.concatenate([np.zeros(self.search.n), used, x])

    def prices(self, solution: LpSolution) -> ti_duals.Duals | None:
        """The solution's prices in the objective's own units."""
        if solution.y is None or solution.dj is None:
            return None
        n = self.search.n
        return ti_duals.duals(solution.y[:n] / self.scale, solution.dj[n : self.first] / self.scale)


def union(a: ti_grid.ColumnSet, b: ti_grid.ColumnSet) -> ti_grid.ColumnSet:
    fields = ("option", "period", "start", "cost", "length")
    return ti_grid.ColumnSet(*(np.concatenate([getattr(a, f), getattr(b, f)]) for f in fields))


@dataclass
class LevelState:
    grid: ti_grid.Grid
    universe: ti_grid.ColumnSet
    in_lp: np.ndarray
    rc: np.ndarray | None = None
    bound: ti_duals.DualBound | None = None
    x: np.ndarray | None = None
    lp_index: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


def column_generation(
    search: Search, state: LevelState, extra: ti_grid.ColumnSet, batch: int, options: SolveOptions
) -> int:
    """Solve the level's LP by column generation; returns the LP's column count."""
    segments = ti_grid.segments_for(search.opts, len(search.counts), search.n, union(state.universe, extra))
    lp = LevelLp(search, segments, options)
    lp.add(extra)
    first = lp.first + len(extra)
    index = np.flatnonzero(state.in_lp)
    lp.add(state.universe.subset(index))
    while not search.out_of_time():
        solution = lp.model.solve(search.time_left(), warm=len(segments) <= WARM_SEGMENTS)
        prices = lp.prices(solution)
        if prices is None:
            break
        rc = ti_duals.reduced_costs(search.opts, segments, state.universe, prices)
        bound = ti_duals.lagrangian_bound(search.opts, search.counts, segments, state.universe, rc, prices)
        state.rc, state.bound = rc, bound
        search.raise_bound(bound.value)
        if solution.x is not None:
            state.x, state.lp_index = solution.x[first:], index
        priced = np.flatnonzero((rc < -1e-9 * max(1.0, abs(search.ceiling()))) & ~state.in_lp)
        if not len(priced) or solution.status != Status.OPTIMAL:
            break
        new = priced[np.argsort(rc[priced], kind="stable")[:batch]]
        state.in_lp[new] = True
        index = np.concatenate([index, new])
        lp.add(state.universe.subset(new))
    return lp.model.columns - lp.first


def integer_program(
    search: Search, state: LevelState, share: float, whole: bool, columns: int, options: SolveOptions
) -> None:
    """The integer program over the ``whole`` universe (its bound is then a certificate for
    better answers), else over the ``columns`` of least reduced cost (a primal heuristic
    only), with ``share`` of the time left; its answer is rounded like the LP's.

    The best answer's columns are always in the program; it is the MIP start only of the
    restricted program. Over the whole universe, that incumbent set off HiGHS 1.12's root
    reduced-cost fixing (``computeBasicDegenerateDuals``, which does not look at the time
    limit): 12 s on an 18,130-column level with a 4.2 s limit, 0.76 s without the start. The
    restricted program is small, and without its start ``generate(100, 3)`` ended 60 s with
    a bound 1 % lower (0.13573 against 0.13708)."""
    if state.rc is None:
        return
    left = search.time_left()
    limit = None if left is None else left * share
    if limit is not None and limit < 0.2:
        return
    take = np.arange(len(state.universe)) if whole else np.argsort(state.rc, kind="stable")[:columns]
    cols = union(state.universe.subset(take), search.columns_of(state.grid, search.best[1]))
    lp = LevelLp(search, ti_grid.segments_for(search.opts, len(search.counts), search.n, cols), options)
    lp.add(cols)
    lp.model.set_integer(True)
    lp.model.set_probing(False)
    if not whole:
        start = np.zeros(len(cols))
        start[len(take) :] = 1.0  # the best answer's columns
        lp.model.set_start(lp.full(start, cols))
    solution = lp.model.solve(limit)
    if solution.x is not None:
        round_answer(search, cols, solution.x[lp.first :])
    if whole and solution.mip_bound is not None:
        # HiGHS's branch-and-bound bound, less a margin for its tolerances (scaled LP).
        search.raise_bound(solution.mip_bound / lp.scale - MIP_MARGIN * abs(search.ceiling()))
