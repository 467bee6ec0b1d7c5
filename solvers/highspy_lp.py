"""The raw ``highspy`` back-end of the matrix layer (:mod:`packgap.solvers.matrix`).

Rows are declared once, columns arrive as CSC arrays, and the same HiGHS instance is re-solved
warm after each batch of new columns (column generation). Conventions are the matrix layer's.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from packgap.errors import SolverUnavailableError
from packgap.result import Status
from packgap.solvers.interrupt import stoppable
from packgap.solvers.matrix import Columns, LpSolution
from packgap.solvers.outcome import SolveOptions

#: HiGHS 1.12's ``presolve_rule_off`` bit for MIP probing (its log: "Rule 15 (bit 32768): Probing").
PROBING_OFF = 1 << 15


def _highspy() -> Any:
    try:
        import highspy
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise SolverUnavailableError(f"highspy cannot be imported: {exc}") from None
    return highspy


class HighsModel:
    """:class:`~packgap.solvers.matrix.LpModel` on one HiGHS instance, kept between solves."""

    def __init__(self, row_lower: np.ndarray, row_upper: np.ndarray, options: SolveOptions) -> None:
        hs = _highspy()
        self._hs = hs
        self.highs = hs.Highs()
        self.highs.setOptionValue("output_flag", False)
        self.highs.HandleUserInterrupt = True  # lets cancelSolve stop a running solve (Ctrl-C)
        self.highs.setOptionValue("threads", options.threads)
        self.highs.setOptionValue("random_seed", options.seed)
        self.highs.setOptionValue("mip_rel_gap", options.mip_gap)
        # the default absolute gap (1e-6) stops early on objectives of that size (issue 17)
        self.highs.setOptionValue("mip_abs_gap", 0.0)
        if options.node_limit is not None:
            self.highs.setOptionValue("mip_max_nodes", options.node_limit)
        if options.iteration_limit is not None:
            self.highs.setOptionValue("simplex_iteration_limit", options.iteration_limit)
            self.highs.setOptionValue("ipm_iteration_limit", options.iteration_limit)
        lower = np.where(np.isfinite(row_lower), row_lower, -hs.kHighsInf).astype(float)
        upper = np.where(np.isfinite(row_upper), row_upper, hs.kHighsInf).astype(float)
        empty = np.zeros(len(lower), dtype=np.int32)
        self.highs.addRows(len(lower), lower, upper, 0, empty, np.zeros(0, dtype=np.int32), np.zeros(0))
        self.columns = 0
        self.integer = False

    @property
    def rows(self) -> int:
        return int(self.highs.getNumRow())

    def add_columns(self, cols: Columns) -> None:
        if not len(cols):
            return
        upper = np.where(np.isfinite(cols.upper), cols.upper, self._hs.kHighsInf).astype(float)
        self.highs.addCols(
            len(cols),
            cols.cost.astype(float),
            cols.lower.astype(float),
            upper,
            len(cols.rows),
            cols.starts[:-1].astype(np.int32),
            cols.rows.astype(np.int32),
            cols.values.astype(float),
        )
        self.columns += len(cols)

    def set_integer(self, integer: bool | np.ndarray) -> None:
        """Every column integer (a MIP), every column continuous (its LP relaxation), or
        column ``i`` integer where ``integer[i]``."""
        n = self.columns
        mask = np.broadcast_to(np.asarray(integer, dtype=bool), (n,))
        kinds = np.array([self._hs.HighsVarType.kContinuous, self._hs.HighsVarType.kInteger])
        self.highs.changeColsIntegrality(n, np.arange(n, dtype=np.int32), kinds[mask.astype(np.intp)])
        self.integer = bool(mask.any())

    def set_probing(self, on: bool) -> None:
        """MIP presolve's probing on or off. Probing does not look at the time limit: on
        exact-ti's integer program of 36,217 columns it ran 9 s past a 1.3 s limit, and on
        those set-partitioning models it never changed the answer or the bound (measured on
        five levels of one instance: each solve 2-7x faster without it)."""
        self.highs.setOptionValue("presolve_rule_off", 0 if on else PROBING_OFF)

    def set_offset(self, offset: float) -> None:
        """A constant added to the objective (and to the bound)."""
        self.highs.changeObjectiveOffset(float(offset))

    def set_start(self, x: np.ndarray) -> None:
        """A MIP start: a value for every column (HiGHS checks it and may discard it)."""
        solution = self._hs.HighsSolution()
        solution.col_value = np.asarray(x, dtype=float)
        solution.value_valid = True
        self.highs.setSolution(solution)

    def solve(self, time_limit: float | None, warm: bool = True) -> LpSolution:
        """Solve; ``time_limit`` covers this call only. An LP starts from the last basis when
        ``warm``, else from scratch through presolve (measured: a warm dual simplex on an LP
        of 177,000 mostly redundant rows did not finish its first pass in 24 s, where presolve
        cut it to 92 rows and solved it in 1 s)."""
        hs = self._hs
        self.highs.setOptionValue("time_limit", float("inf") if time_limit is None else max(time_limit, 1e-3))
        if not warm:
            self.highs.clearSolver()
        start = time.perf_counter()
        with stoppable(self.highs.cancelSolve):
            self.highs.run()
        wall = time.perf_counter() - start
        model_status = self.highs.getModelStatus()
        info = self.highs.getInfo()
        is_mip = self.integer
        solution = self.highs.getSolution()
        x = np.array(solution.col_value) if info.primal_solution_status >= 1 else None
        duals = not is_mip and solution.dual_valid
        y = np.array(solution.row_dual) if duals else None
        dj = np.array(solution.col_dual) if duals else None
        feasible = info.primal_solution_status == 2
        objective = float(info.objective_function_value) if feasible else None
        if model_status == hs.HighsModelStatus.kOptimal:
            status = Status.OPTIMAL
        elif model_status in (hs.HighsModelStatus.kInfeasible, hs.HighsModelStatus.kUnboundedOrInfeasible):
            status = Status.INFEASIBLE
        elif model_status in (
            hs.HighsModelStatus.kTimeLimit,
            hs.HighsModelStatus.kIterationLimit,
            hs.HighsModelStatus.kSolutionLimit,
        ):
            status = Status.TIMEOUT
        else:
            status = Status.ERROR
        bound = float(info.mip_dual_bound) if is_mip and np.isfinite(info.mip_dual_bound) else None
        message = self.highs.modelStatusToString(model_status)
        return LpSolution(status, objective, x if feasible else None, y, dj, bound, wall, message)


def version() -> str:
    h = _highspy().Highs()
    return f"{h.versionMajor()}.{h.versionMinor()}.{h.versionPatch()}"
