"""Mixed-integer programs given as numpy arrays, solved by HiGHS through ``highspy`` directly.

Pyomo costs about 17 us per nonzero to build and hand over (DESIGN.md, "Pitfalls"); a model
assembled as a compressed-sparse-column matrix reaches HiGHS in milliseconds. The program is

    min  cost @ x + offset   s.t.  row_lower <= A x <= row_upper,  col_lower <= x <= col_upper,

with ``x[i]`` integer where ``integer[i]``. A ``start`` vector (a feasible point, e.g. a
heuristic's answer) is handed to HiGHS as its first incumbent. It is solved through the one raw
``highspy`` back-end, :class:`packgap.solvers.highspy_lp.HighsModel`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from packgap.result import Status
from packgap.solvers.highspy_lp import Columns, HighsModel, version
from packgap.solvers.outcome import SolveOptions, SolverOutcome, status_from_gap


@dataclass(frozen=True)
class ArrayMip:
    """A MIP in column-wise sparse form: column ``i``'s entries are ``index[start[i]:start[i+1]]``
    (row numbers) with coefficients ``value[start[i]:start[i+1]]``."""

    cost: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    integer: np.ndarray
    start: np.ndarray
    index: np.ndarray
    value: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    offset: float = 0.0

    @property
    def num_col(self) -> int:
        return len(self.cost)

    @property
    def num_row(self) -> int:
        return len(self.row_lower)

    @property
    def nonzeros(self) -> int:
        return len(self.value)


@dataclass(frozen=True)
class MipSolution:
    """The outcome and, when HiGHS has an incumbent, its column values."""

    outcome: SolverOutcome
    values: np.ndarray | None


def solve_mip(mip: ArrayMip, options: SolveOptions, start: np.ndarray | None = None) -> MipSolution:
    """Solve ``mip``; the bound is HiGHS's dual bound (the objective itself for an LP solved to
    optimality); ``wall_s`` includes handing the model over."""
    began = time.perf_counter()
    model = HighsModel(mip.row_lower, mip.row_upper, options)
    model.add_columns(Columns(mip.cost, mip.col_lower, mip.col_upper, mip.start, mip.index, mip.value))
    model.set_integer(mip.integer)
    model.set_offset(mip.offset)
    if start is not None:
        model.set_start(start)
    solved = model.solve(options.time_limit)
    bound = solved.mip_bound
    if not mip.integer.any() and solved.status == Status.OPTIMAL:
        bound = solved.objective
    status = solved.status
    if status == Status.OPTIMAL and options.mip_gap > 0:
        status = status_from_gap(solved.objective, bound)
    wall = time.perf_counter() - began
    outcome = SolverOutcome(status, solved.objective, bound, wall, "highs", version(), solved.message)
    return MipSolution(outcome, solved.x)
