"""Gurobi (through ``gurobipy``) as a back-end of the matrix layer (:mod:`packgap.solvers.matrix`).

The program goes over as one sparse matrix (``addMVar`` / ``addMConstr``); a ranged row becomes
two rows, whose prices add up to the row's dual. The build counts against the time limit (the
rest goes to ``TimeLimit``); Ctrl-C calls ``terminate`` from the watcher thread of
:mod:`packgap.solvers.interrupt` (Gurobi's solve runs without the GIL); Gurobi's own SIGINT handler
ends the solve as ``INTERRUPTED``, raised as :class:`KeyboardInterrupt`; ``Threads``, ``Seed``,
``MIPGap`` (``MIPGapAbs`` 0), ``NodeLimit`` and ``IterationLimit`` take the options. A missing
or size-limited licence is :func:`~packgap.solvers.catalogue.unavailable`.
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

#: Gurobi's status codes (``GRB.Status``) and the status each one maps to.
STATUSES = {2: Status.OPTIMAL, 3: Status.INFEASIBLE, 4: Status.INFEASIBLE}
TIMEOUTS = (7, 8, 9, 10, 16)  # iteration, node, time, solution and work limits
#: Gurobi error codes of a licence that is missing, expired or too small for the model.
LICENCE_ERRORS = (10009, 10010)


def _gurobipy() -> Any:
    return imported("gurobi", "gurobipy")


def version() -> str:
    return ".".join(str(v) for v in _gurobipy().gurobi.version())


def _model(options: SolveOptions) -> tuple[Any, Any]:
    gp = _gurobipy()
    try:
        env = gp.Env(empty=True)
        env.setParam("OutputFlag", 0)
        env.start()
    except gp.GurobiError as exc:
        raise unavailable("gurobi", f"no licence ({exc})") from None
    model = gp.Model(env=env)
    model.Params.Threads = options.threads
    model.Params.Seed = options.seed
    model.Params.MIPGap = options.mip_gap
    model.Params.MIPGapAbs = 0.0
    if options.node_limit is not None:
        model.Params.NodeLimit = options.node_limit
    if options.iteration_limit is not None:
        model.Params.IterationLimit = options.iteration_limit
    return model, env


def solve_arrays(
    mip: ArrayMip, options: SolveOptions, time_limit: float | None, start: np.ndarray | None
) -> LpSolution:
    """Solve ``mip`` on Gurobi within ``time_limit`` seconds, the build included."""
    gp = _gurobipy()
    began = time.perf_counter()
    model, env = _model(options)
    try:
        return _solve(gp, model, mip, time_limit, start, began)
    except gp.GurobiError as exc:
        if exc.errno in LICENCE_ERRORS:
            raise unavailable("gurobi", f"the licence does not cover this model ({exc})") from None
        raise
    finally:
        model.dispose()
        env.dispose()


def _solve(
    gp: Any, model: Any, mip: ArrayMip, time_limit: float | None, start: np.ndarray | None, began: float
) -> LpSolution:
    is_lp = not mip.integer.any()
    kinds = np.where(mip.integer, gp.GRB.INTEGER, gp.GRB.CONTINUOUS)
    x = model.addMVar(mip.num_col, lb=mip.col_lower, ub=mip.col_upper, obj=mip.cost, vtype=kinds)
    model.ObjCon = mip.offset
    a = mip.csr()
    equal = mip.row_lower == mip.row_upper
    parts = []
    for sense, side, rows in (
        ("=", mip.row_lower, equal),
        (">", mip.row_lower, ~equal & np.isfinite(mip.row_lower)),
        ("<", mip.row_upper, ~equal & np.isfinite(mip.row_upper)),
    ):
        index = np.flatnonzero(rows)
        if len(index):
            parts.append((index, model.addMConstr(a[index], x, sense, side[index])))
    if start is not None and not is_lp:
        x.Start = start
    if time_limit is not None:
        left = time_limit - (time.perf_counter() - began)
        if left < MIN_SOLVE_S:
            message = f"time limit spent handing the model to Gurobi ({time.perf_counter() - began:.3g} s)"
            return LpSolution(Status.TIMEOUT, None, None, None, None, None, time.perf_counter() - began, message)
        model.Params.TimeLimit = left
    with stoppable(model.terminate):
        model.optimize()
    code = model.Status
    if code == gp.GRB.INTERRUPTED:
        # Gurobi takes SIGINT itself during a solve (its handler, not Python's): a Ctrl-C
        raise KeyboardInterrupt
    status = STATUSES.get(code, Status.TIMEOUT if code in TIMEOUTS else Status.ERROR)
    values = objective = None
    if model.SolCount > 0:
        values, objective = np.array(x.X), float(model.ObjVal)
    y = dj = None
    if is_lp and code == gp.GRB.OPTIMAL:
        y = np.zeros(mip.num_row)
        for index, constrs in parts:
            np.add.at(y, index, np.array(constrs.Pi))
        dj = np.array(x.RC)
    bound = None
    if not is_lp:
        try:
            found = float(model.ObjBound)
        except (AttributeError, gp.GurobiError):  # no bound (an infeasible model)
            found = gp.GRB.INFINITY
        bound = found if abs(found) < gp.GRB.INFINITY else None
    return LpSolution(status, objective, values, y, dj, bound, time.perf_counter() - began, f"gurobi status {code}")
