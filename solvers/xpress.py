"""FICO Xpress (through its ``xpress`` package) as a back-end of the matrix layer
(:mod:`packgap.solvers.matrix`).

The program goes over whole (``loadLP`` / ``loadMIP``, ranged rows as ``R`` with the upper side as
right-hand side); the objective's constant is added to the objective and the bound afterwards.
The build counts against the time limit (the rest goes to ``timelimit``); Ctrl-C interrupts the
first solve of a process (``interrupt`` from the watcher thread of :mod:`packgap.solvers.interrupt`),
raised as :class:`KeyboardInterrupt`. Not yet the later ones: Xpress 9.9 sets SIGINT to the system
default inside a MIP solve once it has run one (strace), so a Ctrl-C then ends the process (exit
130) before Python sees it; Python's handler is put back after each solve. ``threads``, ``randomseed``,
``miprelstop`` (``mipabsstop`` 0), ``maxnode`` and ``lpiterlimit`` take the options. A model over
the Community licence's size limit is :func:`~packgap.solvers.catalogue.unavailable`.
"""

from __future__ import annotations

import time
import warnings
from typing import Any

import numpy as np

from packgap.result import Status
from packgap.solvers.catalogue import imported, unavailable
from packgap.solvers.interrupt import sigint_restored, stoppable
from packgap.solvers.matrix import ArrayMip, LpSolution
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions

#: Xpress's infinity (``XPRS_PLUSINFINITY``).
INFINITY = 1e20


def _xpress() -> Any:
    return imported("xpress", "xpress")


def version() -> str:
    found: str = _xpress().getVersion()
    return found


def _problem(xp: Any, options: SolveOptions) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the notice that the Community licence is in use
        p = xp.problem()
    p.controls.outputlog = 0
    p.controls.threads = options.threads
    p.controls.randomseed = options.seed
    p.controls.miprelstop = options.mip_gap
    p.controls.mipabsstop = 0.0
    if options.node_limit is not None:
        p.controls.maxnode = options.node_limit
    if options.iteration_limit is not None:
        p.controls.lpiterlimit = options.iteration_limit
    return p


def _load(p: Any, mip: ArrayMip) -> None:
    lo, up = mip.row_lower, mip.row_upper
    kind = np.where(
        np.isfinite(lo),
        np.where(np.isfinite(up), np.where(lo == up, "E", "R"), "G"),
        np.where(np.isfinite(up), "L", "N"),
    )
    rhs = np.where(np.isfinite(up), up, np.where(np.isfinite(lo), lo, 0.0))
    span = np.subtract(up, lo, out=np.zeros(len(lo)), where=np.isfinite(lo) & np.isfinite(up))
    arrays = {
        "probname": "packgap",
        "rowtype": kind.tolist(),
        "rhs": rhs.tolist(),
        "rng": span.tolist(),
        "objcoef": mip.cost.tolist(),
        "start": mip.start.tolist(),
        "collen": None,
        "rowind": mip.index.tolist(),
        "rowcoef": mip.value.tolist(),
        "lb": np.where(np.isfinite(mip.col_lower), mip.col_lower, -INFINITY).tolist(),
        "ub": np.where(np.isfinite(mip.col_upper), mip.col_upper, INFINITY).tolist(),
    }
    entities = np.flatnonzero(mip.integer)
    if len(entities):
        p.loadMIP(**arrays, coltype=["I"] * len(entities), entind=entities.tolist())
    else:
        p.loadLP(**arrays)


def solve_arrays(
    mip: ArrayMip, options: SolveOptions, time_limit: float | None, start: np.ndarray | None
) -> LpSolution:
    """Solve ``mip`` on Xpress within ``time_limit`` seconds, the build included."""
    xp = _xpress()
    began = time.perf_counter()
    p = _problem(xp, options)
    try:
        _load(p, mip)
    except xp.SolverError as exc:
        raise unavailable("xpress", f"the licence does not cover this model ({exc})") from None
    is_lp = not mip.integer.any()
    if start is not None and not is_lp:
        p.addMipSol(np.asarray(start, dtype=float).tolist())
    if time_limit is not None:
        left = time_limit - (time.perf_counter() - began)
        if left < MIN_SOLVE_S:
            message = f"time limit spent handing the model to Xpress ({time.perf_counter() - began:.3g} s)"
            return LpSolution(Status.TIMEOUT, None, None, None, None, None, time.perf_counter() - began, message)
        p.controls.timelimit = left
    with sigint_restored(), stoppable(p.interrupt):
        try:
            p.optimize()
        except xp.SolverError as exc:
            raise unavailable("xpress", f"the licence does not cover this model ({exc})") from None
    attrs = p.attributes
    if attrs.stopstatus in (xp.StopType.CTRLC, xp.StopType.USER):
        raise KeyboardInterrupt
    found = attrs.solstatus
    if found == xp.SolStatus.OPTIMAL:
        status = Status.OPTIMAL
    elif found == xp.SolStatus.INFEASIBLE:
        status = Status.INFEASIBLE
    elif attrs.solvestatus == xp.SolveStatus.STOPPED:
        status = Status.TIMEOUT
    else:
        status = Status.ERROR
    values = objective = None
    if found in (xp.SolStatus.OPTIMAL, xp.SolStatus.FEASIBLE):
        values, objective = np.array(p.getSolution()), float(attrs.objval) + mip.offset
    y = dj = None
    if is_lp and found == xp.SolStatus.OPTIMAL:
        y, dj = np.array(p.getDuals()), np.array(p.getRedCosts())
    bound = None
    if not is_lp and found != xp.SolStatus.INFEASIBLE and abs(attrs.bestbound) < INFINITY:
        bound = float(attrs.bestbound) + mip.offset
    message = f"xpress {found.name.lower()}, {attrs.solvestatus.name.lower()}"
    return LpSolution(status, objective, values, y, dj, bound, time.perf_counter() - began, message)
