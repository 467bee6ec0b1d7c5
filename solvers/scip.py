"""SCIP (through ``pyscipopt``, which bundles it) as a back-end of the matrix layer
(:mod:`packgap.solvers.matrix`): the optional extra ``packgap[scip]``.

Honest in the same ways as HiGHS: the model build counts against the time limit (what is left
goes to ``limits/time``); Ctrl-C stops a running solve (``interruptSolve`` from the watcher
thread of :mod:`packgap.solvers.interrupt`, with SCIP's own SIGINT catching off and the solve
run without the GIL); the seed is ``randomization/randomseedshift``; ``threads`` goes to
``lp/threads`` (SCIP's branch and bound itself is sequential); the absolute gap is 0 and the
relative gap ``limits/gap``; node and iteration limits are ``limits/nodes`` and ``lp/iterlim``.

LP duals: a pure LP is solved with presolving and propagation off, so that its root LP is the
whole program and ``getDualsolLinear`` gives each row's price in HiGHS's sign convention.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from packgap.result import Status
from packgap.solvers.catalogue import imported
from packgap.solvers.interrupt import stoppable
from packgap.solvers.matrix import ArrayMip, LpSolution
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions

#: Rows added between two looks at the clock while the model is built.
CHECK_ROWS = 256
#: SCIP statuses (``Model.getStatus``) and the status each one maps to.
STATUSES = {
    "optimal": Status.OPTIMAL,
    "gaplimit": Status.OPTIMAL,
    "infeasible": Status.INFEASIBLE,
    "inforunbd": Status.INFEASIBLE,
    "timelimit": Status.TIMEOUT,
    "nodelimit": Status.TIMEOUT,
    "totalnodelimit": Status.TIMEOUT,
    "stallnodelimit": Status.TIMEOUT,
    "sollimit": Status.TIMEOUT,
    "bestsollimit": Status.TIMEOUT,
    "memlimit": Status.TIMEOUT,
    "userinterrupt": Status.TIMEOUT,
}


def _pyscipopt() -> Any:
    return imported("scip", "pyscipopt")


def version() -> str:
    m = _pyscipopt().Model()
    return f"{m.getMajorVersion()}.{m.getMinorVersion()}.{m.getTechVersion()}"


def _configure(model: Any, options: SolveOptions, lp: bool) -> None:
    model.hideOutput()
    model.setParam("misc/catchctrlc", False)
    model.setParam("randomization/randomseedshift", options.seed)
    model.setParam("lp/threads", options.threads)
    model.setParam("limits/gap", options.mip_gap)
    model.setParam("limits/absgap", 0.0)
    if options.node_limit is not None:
        model.setParam("limits/nodes", options.node_limit)
    if options.iteration_limit is not None:
        model.setParam("lp/iterlim", options.iteration_limit)
    if lp:
        model.setPresolve(_pyscipopt().SCIP_PARAMSETTING.OFF)
        model.disablePropagation()


def _build(model: Any, mip: ArrayMip, deadline: float) -> tuple[list[Any], list[Any]] | None:
    """The program in ``model`` (about 4.5 us per nonzero in pyscipopt's Python API); None when
    ``deadline`` (a ``time.perf_counter`` value) passes first, checked every :data:`CHECK_ROWS` rows."""
    ps = _pyscipopt()
    inf = model.infinity()
    variables = [
        model.addVar(
            name=f"x{i}",
            vtype="I" if mip.integer[i] else "C",
            lb=lo if np.isfinite(lo) else None,
            ub=up if np.isfinite(up) else None,
            obj=float(c),
        )
        for i, (c, lo, up) in enumerate(zip(mip.cost, mip.col_lower, mip.col_upper, strict=True))
    ]
    if mip.offset:
        model.addObjoffset(float(mip.offset))
    matrix = mip.csr()
    rows = []
    for r in range(mip.num_row):
        if r % CHECK_ROWS == 0 and time.perf_counter() > deadline:
            return None
        lo, up = mip.row_lower[r], mip.row_upper[r]
        span = slice(matrix.indptr[r], matrix.indptr[r + 1])
        terms = {
            ps.scip.Term(variables[j]): float(a) for j, a in zip(matrix.indices[span], matrix.data[span], strict=True)
        }
        cons = ps.scip.ExprCons(
            ps.scip.Expr(terms), lhs=float(lo) if np.isfinite(lo) else -inf, rhs=float(up) if np.isfinite(up) else inf
        )
        rows.append(model.addCons(cons, name=f"r{r}"))
    return variables, rows


def solve_arrays(
    mip: ArrayMip, options: SolveOptions, time_limit: float | None, start: np.ndarray | None
) -> LpSolution:
    """Solve ``mip`` on SCIP within ``time_limit`` seconds, the build included."""
    began = time.perf_counter()
    model = _pyscipopt().Model()
    is_lp = not mip.integer.any()
    _configure(model, options, is_lp)
    built = _build(model, mip, np.inf if time_limit is None else began + time_limit)
    if built is None:
        message = f"time limit reached while handing the model to SCIP ({time.perf_counter() - began:.3g} s)"
        return LpSolution(Status.TIMEOUT, None, None, None, None, None, time.perf_counter() - began, message)
    variables, rows = built
    if start is not None and not is_lp:
        sol = model.createPartialSol()
        for v, value in zip(variables, start, strict=True):
            model.setSolVal(sol, v, float(value))
        model.addSol(sol)
    if time_limit is not None:
        left = time_limit - (time.perf_counter() - began)
        if left < MIN_SOLVE_S:
            message = f"time limit spent handing the model to SCIP ({time.perf_counter() - began:.3g} s)"
            return LpSolution(Status.TIMEOUT, None, None, None, None, None, time.perf_counter() - began, message)
        model.setParam("limits/time", left)
    with stoppable(model.interruptSolve):
        model.optimizeNogil()
    name = model.getStatus()
    status = STATUSES.get(name, Status.ERROR)
    x = objective = None
    if model.getNSols() > 0:
        best = model.getBestSol()
        x = np.array([model.getSolVal(best, v) for v in variables])
        objective = float(model.getSolObjVal(best))
    y = dj = None
    if is_lp and name == "optimal":
        y = np.array([model.getDualsolLinear(c) for c in rows])
        dj = mip.cost - mip.csr().T @ y if len(y) else mip.cost.copy()
    bound = model.getDualbound()
    bound = None if is_lp or abs(bound) >= model.infinity() else float(bound)
    return LpSolution(status, objective, x, y, dj, bound, time.perf_counter() - began, f"scip {name}")
