"""CPLEX (through its ``cplex`` package) as a back-end of the matrix layer
(:mod:`packgap.solvers.matrix`).

Rows go over as ranged rows (``R``: ``rhs <= a x <= rhs + range``) or one-sided ones. The build
counts against the time limit (the rest goes to ``timelimit``); Ctrl-C aborts the solve (an
``Aborter`` called from the watcher thread of :mod:`packgap.solvers.interrupt`, or CPLEX's own
SIGINT handler during ``solve``), and an aborted solve is raised as :class:`KeyboardInterrupt`;
``threads``, ``randomseed``, ``mip.tolerances.mipgap`` (``absmipgap`` 0), ``mip.limits.nodes``
and ``simplex.limits.iterations`` take the options. A model over the Community Edition's size
limits is :func:`~packgap.solvers.catalogue.unavailable`.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from packgap.result import Status
from packgap.solvers.catalogue import imported, unavailable
from packgap.solvers.interrupt import stoppable
from packgap.solvers.matrix import ArrayMip, LpSolution
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions

#: CPLEX solution statuses and the status each one maps to.
STATUSES = {1: Status.OPTIMAL, 101: Status.OPTIMAL, 102: Status.OPTIMAL}
INFEASIBLE = (3, 4, 103, 119)
TIMEOUTS = (10, 11, 104, 105, 106, 107, 108)
ABORTED = (13, 113, 114)
#: CPLEX errors of a licence too small for the model (Community Edition limits).
LICENCE_ERRORS = (1016, 32201)


def _cplex() -> Any:
    return imported("cplex", "cplex")


def version() -> str:
    found: str = _cplex().Cplex().get_version()
    return found


def _configure(c: Any, options: SolveOptions) -> None:
    for stream in (c.set_log_stream, c.set_error_stream, c.set_warning_stream, c.set_results_stream):
        stream(None)
    c.parameters.threads.set(options.threads)
    c.parameters.randomseed.set(options.seed)
    c.parameters.mip.tolerances.mipgap.set(options.mip_gap)
    c.parameters.mip.tolerances.absmipgap.set(0.0)
    if options.node_limit is not None:
        c.parameters.mip.limits.nodes.set(options.node_limit)
    if options.iteration_limit is not None:
        c.parameters.simplex.limits.iterations.set(options.iteration_limit)


def _build(cplex: Any, c: Any, mip: ArrayMip) -> None:
    inf = cplex.infinity
    lower = np.where(np.isfinite(mip.col_lower), mip.col_lower, -inf).tolist()
    upper = np.where(np.isfinite(mip.col_upper), mip.col_upper, inf).tolist()
    if mip.integer.any():
        c.variables.add(obj=mip.cost.tolist(), lb=lower, ub=upper, types="".join("IC"[not i] for i in mip.integer))
    else:
        c.variables.add(obj=mip.cost.tolist(), lb=lower, ub=upper)
    c.objective.set_offset(float(mip.offset))
    a = mip.csr()
    rows = [
        cplex.SparsePair(
            ind=a.indices[a.indptr[r] : a.indptr[r + 1]].tolist(), val=a.data[a.indptr[r] : a.indptr[r + 1]].tolist()
        )
        for r in range(mip.num_row)
    ]
    lo, up = mip.row_lower, mip.row_upper
    senses = np.where(np.isfinite(lo), np.where(np.isfinite(up), "R", "G"), "L")
    rhs = np.where(np.isfinite(lo), lo, np.where(np.isfinite(up), up, inf))
    both = np.isfinite(lo) & np.isfinite(up)
    ranges = np.subtract(up, lo, out=np.zeros(len(lo)), where=both)
    c.linear_constraints.add(lin_expr=rows, senses="".join(senses), rhs=rhs.tolist(), range_values=ranges.tolist())


def solve_arrays(
    mip: ArrayMip, options: SolveOptions, time_limit: float | None, start: np.ndarray | None
) -> LpSolution:
    """Solve ``mip`` on CPLEX within ``time_limit`` seconds, the build included."""
    cplex = _cplex()
    began = time.perf_counter()
    c = cplex.Cplex()
    try:
        return _solve(cplex, c, mip, options, time_limit, start, began)
    except cplex.exceptions.CplexSolverError as exc:
        if exc.args[2] in LICENCE_ERRORS:
            raise unavailable("cplex", f"the licence does not cover this model ({exc.args[0].strip()})") from None
        raise
    finally:
        c.end()


def _solve(
    cplex: Any,
    c: Any,
    mip: ArrayMip,
    options: SolveOptions,
    time_limit: float | None,
    start: np.ndarray | None,
    began: float,
) -> LpSolution:
    _configure(c, options)
    _build(cplex, c, mip)
    is_lp = not mip.integer.any()
    if start is not None and not is_lp:
        c.MIP_starts.add(
            [list(range(mip.num_col)), np.asarray(start, dtype=float).tolist()], c.MIP_starts.effort_level.auto
        )
    if time_limit is not None:
        left = time_limit - (time.perf_counter() - began)
        if left < MIN_SOLVE_S:
            message = f"time limit spent handing the model to CPLEX ({time.perf_counter() - began:.3g} s)"
            return LpSolution(Status.TIMEOUT, None, None, None, None, None, time.perf_counter() - began, message)
        c.parameters.timelimit.set(left)
    aborter = c.use_aborter(cplex.Aborter())
    with stoppable(aborter.abort):
        c.solve()
    code = c.solution.get_status()
    if code in ABORTED:
        raise KeyboardInterrupt
    if code in STATUSES:
        status = STATUSES[code]
    else:
        status = Status.INFEASIBLE if code in INFEASIBLE else Status.TIMEOUT if code in TIMEOUTS else Status.ERROR
    values = objective = None
    if c.solution.is_primal_feasible():
        values, objective = np.array(c.solution.get_values()), float(c.solution.get_objective_value())
    y = dj = None
    if is_lp and code == 1:
        y, dj = np.array(c.solution.get_dual_values()), np.array(c.solution.get_reduced_costs())
    bound = None
    if not is_lp and code not in INFEASIBLE:
        found = float(c.solution.MIP.get_best_objective())
        bound = found if abs(found) < cplex.infinity else None
    message = f"cplex {c.solution.get_status_string(code)}"
    return LpSolution(status, objective, values, y, dj, bound, time.perf_counter() - began, message)
