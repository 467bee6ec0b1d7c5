"""Mixed-integer programs given as numpy arrays, solved by HiGHS through ``highspy`` directly.

Pyomo costs about 17 us per nonzero to build and hand over (DESIGN.md, "Pitfalls"); a model
assembled as a compressed-sparse-column matrix reaches HiGHS in milliseconds. The program is

    min  cost @ x + offset   s.t.  row_lower <= A x <= row_upper,  col_lower <= x <= col_upper,

with ``x[i]`` integer where ``integer[i]``. A ``start`` vector (a feasible point, e.g. a
heuristic's answer) is handed to HiGHS as its first incumbent.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from packgap.errors import SolverUnavailableError
from packgap.result import Status
from solvers.outcome import SolveOptions, SolverOutcome, status_from_gap


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


def _highspy() -> Any:
    try:
        import highspy
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise SolverUnavailableError(f"highspy cannot be imported: {exc}") from None
    return highspy


def version() -> str:
    h = _highspy().Highs()
    return f"{h.versionMajor()}.{h.versionMinor()}.{h.versionPatch()}"


def _lp(highspy: Any, mip: ArrayMip) -> Any:
    lp = highspy.HighsLp()
    lp.num_col_ = mip.num_col
    lp.num_row_ = mip.num_row
    lp.col_cost_ = mip.cost
    lp.col_lower_ = mip.col_lower
    lp.col_upper_ = mip.col_upper
    lp.row_lower_ = mip.row_lower
    lp.row_upper_ = mip.row_upper
    lp.offset_ = mip.offset
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = mip.start
    lp.a_matrix_.index_ = mip.index
    lp.a_matrix_.value_ = mip.value
    kinds = np.where(mip.integer, highspy.HighsVarType.kInteger.value, highspy.HighsVarType.kContinuous.value)
    lp.integrality_ = [highspy.HighsVarType(int(k)) for k in kinds]
    return lp


def solve_mip(mip: ArrayMip, options: SolveOptions, start: np.ndarray | None = None) -> MipSolution:
    """Solve ``mip``; the bound is HiGHS's dual bound (the objective itself when optimal)."""
    highspy = _highspy()
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", options.threads)
    h.setOptionValue("random_seed", options.seed)
    h.setOptionValue("mip_rel_gap", options.mip_gap)
    if options.time_limit is not None:
        h.setOptionValue("time_limit", float(options.time_limit))
    began = time.perf_counter()
    h.passModel(_lp(highspy, mip))
    if start is not None:
        solution = highspy.HighsSolution()
        solution.col_value = np.asarray(start, dtype=float)
        solution.value_valid = True
        h.setSolution(solution)
    h.run()
    wall = time.perf_counter() - began
    status = h.getModelStatus()
    info = h.getInfo()
    has_solution = info.primal_solution_status == 2
    values = np.asarray(h.getSolution().col_value) if has_solution else None
    objective = float(info.objective_function_value) if has_solution else None
    bound = float(info.mip_dual_bound) if np.isfinite(info.mip_dual_bound) else None
    if not mip.integer.any() and status == highspy.HighsModelStatus.kOptimal:
        bound = objective
    kind = highspy.HighsModelStatus
    if status == kind.kOptimal:
        code = status_from_gap(objective, bound) if options.mip_gap > 0 else Status.OPTIMAL
    elif status in (kind.kInfeasible, kind.kUnboundedOrInfeasible):
        code = Status.INFEASIBLE
    elif status == kind.kTimeLimit:
        code = Status.TIMEOUT
    else:
        code = Status.ERROR
    outcome = SolverOutcome(code, objective, bound, wall, "highs", version(), h.modelStatusToString(status))
    return MipSolution(outcome, values)
