"""Exact joint packing by an adaptive time-indexed LP (issue 11; DESIGN.md, "Known structure").

The problem is CUCKOO's joint formulation (section 3.3.1, eq. 3-10): pair jobs of equal GPU
demand, give each group a GPU type and a start, within each type's GPU count at all times,
minimising ``alpha * V1 + beta * V2``. One *level* of the method works on the relaxation of
:mod:`packgap.models.packing.ti_grid` with the columns still in play (the *universe*;
:mod:`packgap.analysis.packing.ti.lp`):

1. column generation: the LP over a growing subset of the universe, priced over the whole
   universe with the prefix-sum pricing of :mod:`packgap.models.packing.ti_duals`; after every LP
   the Lagrangian bound is a certificate (also when the LP was stopped early);
2. primal side: LP rounding plus a serial schedule (:mod:`packgap.models.packing.serial`), and the
   same from an integer program over the universe when it is small (then also a bound) or
   over the columns of least reduced cost, then local search from the best answer; every
   answer is validated and scored by the family's evaluator before it counts
   (:mod:`packgap.analysis.packing.ti.search`, :mod:`packgap.analysis.packing.ti.rounding`,
   :mod:`packgap.analysis.packing.ti.local_search`);
3. reduced-cost fixing against the best answer drops the columns that lie in no better
   solution; the survivors split into half periods (:func:`packgap.models.packing.ti_grid.refine`).

Levels repeat, coarse to fine, until the gap closes (relative :data:`OPTIMAL_GAP`), the
universe would pass ``max_columns`` (memory), halving stops paying on a universe too big
for the integer program or on data on CP-SAT's grid (where the polish proves the rest), or
the time is spent. Half of what is left then goes to local search, the rest to CP-SAT
(:mod:`packgap.models.packing.cpsat`, rounding ``"feasible"``) over the options the last level
kept, hinted with the best answer and given the best bound as a cut; its answer counts when
better, its bound when its data lie on its grid (then it also gets ``cpsat_share`` of the time
limit up front). The bound reported is the best of every valid bound computed (each level's,
the integer programs', CP-SAT's, the closed-form bound of :mod:`packgap.models.packing.bounds`),
capped by the best answer: a level's bound speaks only of solutions better than the answer it
pruned with.

The horizon H (the tail starts there) is the best answer's makespan; any H is valid.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from packgap.analysis.packing.ti.lp import LevelState, column_generation, integer_program
from packgap.analysis.packing.ti.rounding import round_answer
from packgap.analysis.packing.ti.search import Search
from packgap.analysis.packing.ti.settings import TiSettings
from packgap.deadline import within
from packgap.errors import TimeLimitReached
from packgap.models.packing import cpsat, ti_duals, ti_grid
from packgap.packing import PackingInstance, PackingSolution
from packgap.packing.evaluate import outcomes
from packgap.result import Status, certified_gap
from packgap.solvers.cpsat import solve_cpsat
from packgap.solvers.outcome import SolveOptions

#: Relative gap at which an answer counts as proven optimal (the evaluator's bound tolerance).
OPTIMAL_GAP = 1e-6
#: Least time (s) worth a CP-SAT polish.
POLISH_MIN_S = 0.5
#: Local search time (s) per call when there is no time limit.
UNTIMED_SEARCH_S = 10.0


@dataclass(frozen=True)
class Level:
    period: float
    universe: int
    lp_columns: int
    bound: float
    objective: float
    seconds: float


@dataclass
class TiOutcome:
    """Best answer (validated), best valid bound, and what each level did."""

    solution: PackingSolution
    objective: float
    bound: float
    status: Status
    levels: list[Level] = field(default_factory=list)

    @property
    def gap(self) -> float:
        gap = certified_gap(self.objective, self.bound)
        assert gap is not None
        return gap


def _polish(search: Search, allowed: set[tuple[int, int]], options: SolveOptions) -> bool:
    """CP-SAT over the options still in play (module docstring); True when it timed out (its
    build, which checks the deadline, included)."""
    try:
        with within(search.time_left(), "building the CP-SAT polish"):
            cp = cpsat.build_cpsat(
                search.instance, search.best[1], rounding="feasible", floor=search.bound, allowed=allowed
            )
    except TimeLimitReached:
        return True
    left = search.time_left()
    if left is not None and left < 0.1:
        return True
    outcome, solver = solve_cpsat(cp.model, replace(options, time_limit=left))
    if outcome.has_solution:
        search.offer(cpsat.answer(search.instance, cp, solver))
    proven = cpsat.bound(cp, outcome.bound)
    if proven is not None:
        search.raise_bound(proven - search.w.constant)
    return outcome.status == Status.TIMEOUT


def _stalled(levels: list[Level]) -> bool:
    """True when the last level closed under 1 % of the gap the one before it left."""
    if len(levels) < 2:
        return False
    a, b = levels[-2], levels[-1]
    return b.bound - a.bound < 0.01 * (a.objective - a.bound)


def _level(search: Search, state: LevelState, done: list[Level], settings: TiSettings, options: SolveOptions) -> Level:
    """One level (module docstring): its LP, rounding, integer program and local search."""
    begin = time.perf_counter()
    extra = search.columns_of(state.grid, search.best[1])
    lp_columns = column_generation(search, state, extra, settings.batch, options)

    def record() -> Level:
        seconds = time.perf_counter() - begin
        return Level(state.grid.period, len(state.universe), lp_columns, search.bound, search.best[0], seconds)

    if state.x is not None:
        round_answer(search, state.universe.subset(state.lp_index), state.x)
    if search.gap() > OPTIMAL_GAP:
        # The whole universe once halving stops paying (the LP's own gap is what is left).
        whole = len(state.universe) <= settings.milp_universe and _stalled([*done, record()])
        share = settings.milp_share * (2 if whole else 1)
        integer_program(search, state, share, whole, settings.milp_columns, options)
    left = search.time_left()
    if done and search.gap() > OPTIMAL_GAP:
        # Not on the first level: its answers are far from the optimum and slow to climb from.
        search.improve(settings.search_share * left if left is not None else UNTIMED_SEARCH_S)
    return record()


def solve_ti(
    instance: PackingInstance,
    hints: Sequence[PackingSolution],
    options: SolveOptions,
    settings: TiSettings = TiSettings(),
    built: Callable[[], None] = lambda: None,
) -> TiOutcome:
    """Run the levels within ``options.time_limit`` (wall time from this call; ``built`` is
    called once the first level's model data exist)."""
    deadline = None if options.time_limit is None else time.perf_counter() + options.time_limit
    # The candidate groups and the first universe are Python with no clock of their own
    # (500 jobs: 15.4 s under a 5 s limit before this guard); they check the deadline.
    with within(options.time_limit, "building the time-indexed columns"):
        search = Search(instance, hints, deadline)
        horizon = max(o.completion for o in outcomes(instance, search.best[1]))
        on_grid = cpsat.resolution(instance, search.cands, horizon)[1]
        if deadline is not None and on_grid:
            search.deadline = deadline - settings.cpsat_share * (deadline - time.perf_counter())
        grid = ti_grid.Grid(max(horizon, 1e-3) / settings.periods, settings.periods)
        universe = ti_grid.all_columns(search.opts, grid, search.w)
    state = LevelState(grid, universe, np.zeros(len(universe), dtype=bool))
    built()
    levels: list[Level] = []
    timed_out = False
    while True:
        levels.append(_level(search, state, levels, settings, options))
        if search.gap() <= OPTIMAL_GAP:
            break
        if search.out_of_time() or state.rc is None or state.bound is None:
            timed_out = True
            break
        keep = ti_duals.improving(search.opts, state.universe, state.rc, state.bound, search.ceiling())
        # Halving stops when memory would run out, or when it no longer pays (two levels in
        # a row under 1 % of the gap) on a universe too big for the integer program or on
        # data on CP-SAT's grid, where the polish proves what halving closes only slowly
        # (a 4-job instance: six more levels took 20 s and left the bound 1e-5 short; CP-SAT
        # closed the gap in 0.3 s).
        big = len(state.universe) > settings.milp_universe
        stalled = _stalled(levels) and _stalled(levels[:-1])
        if 2 * keep.sum() > settings.max_columns or ((big or on_grid) and stalled):
            break
        support = np.zeros(len(state.universe), dtype=bool)
        if state.x is not None:
            support[state.lp_index[state.x > 1e-9]] = True
        grid, universe, parent = ti_grid.refine(search.opts, state.grid, search.w, state.universe.subset(keep))
        state = LevelState(grid, universe, support[keep][parent])
    search.deadline = deadline
    left = search.time_left()
    if search.gap() > OPTIMAL_GAP:
        search.improve(left / 2 if left is not None else UNTIMED_SEARCH_S)
    left = search.time_left()
    # Without a time limit only data on the grid get the polish: there it proves optimality,
    # off the grid its answer has no end in sight.
    if search.gap() > OPTIMAL_GAP and (left > POLISH_MIN_S if left is not None else on_grid):
        allowed = set(
            zip(
                search.opts.candidate[state.universe.option].tolist(),
                search.opts.kind[state.universe.option].tolist(),
                strict=True,
            )
        )
        timed_out = _polish(search, allowed, options) or timed_out
    gap = search.gap()
    status = Status.OPTIMAL if gap <= OPTIMAL_GAP else (Status.TIMEOUT if timed_out else Status.FEASIBLE)
    return TiOutcome(search.best[1], search.best[0], min(search.bound, search.best[0]), status, levels)
