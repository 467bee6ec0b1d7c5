"""Pyomo models on any back-end of :mod:`packgap.solvers.catalogue`.

HiGHS keeps its in-process Pyomo interface (:func:`packgap.solvers.highs.solve_highs`). Every
other solver gets the model through the matrix layer (:mod:`packgap.solvers.matrix`): Pyomo's
own standard-form compiler (``pyomo.repn.plugins.standard_form``) writes its rows and columns
as sparse arrays, the back-end solves them, and the incumbent is loaded into the model's
variables, so one back-end function per solver serves array and Pyomo models alike and every
model runs on every solver. The compilation is Python work with no clock of its own: it runs
under the time limit, like HiGHS's hand-over, and the solver gets what is left.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import numpy as np

from packgap.deadline import check, within
from packgap.errors import PackgapError, TimeLimitReached
from packgap.result import Status
from packgap.solvers import catalogue
from packgap.solvers.highs import solve_highs
from packgap.solvers.matrix import ArrayMip, solve_mip
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions, SolverOutcome

#: Row senses of the compiler's ``mixed_form``: -1 is ``>=``, 0 ``==``, 1 ``<=``.
GE, EQ, LE = -1, 0, 1


def to_arrays(model: Any) -> tuple[ArrayMip, list[Any]]:
    """The model's one active objective (as a minimisation: a maximised one negated) and its
    constraints as an :class:`ArrayMip`, with the Pyomo variable of each column."""
    from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler

    form = LinearStandardFormCompiler().write(model, mixed_form=True, set_sense=1)
    if form.c.shape[0] != 1:
        raise PackgapError(f"a model with {form.c.shape[0]} objectives cannot be solved by the matrix layer")
    senses = np.array([sense for _, sense in form.rows], dtype=int)
    rhs = np.asarray(form.rhs, dtype=float)
    lower = np.where(senses == LE, -np.inf, rhs)
    upper = np.where(senses == GE, np.inf, rhs)
    columns = list(form.columns)
    bounds = [v.bounds for v in columns]
    matrix = form.A.tocsc()
    mip = ArrayMip(
        cost=np.asarray(form.c.toarray()[0], dtype=float),
        col_lower=np.array([-np.inf if lo is None else lo for lo, _ in bounds], dtype=float),
        col_upper=np.array([np.inf if up is None else up for _, up in bounds], dtype=float),
        integer=np.array([v.is_integer() or v.is_binary() for v in columns], dtype=bool),
        start=matrix.indptr,
        index=matrix.indices,
        value=matrix.data,
        row_lower=lower,
        row_upper=upper,
        offset=float(form.c_offset[0]),
    )
    return mip, columns


def solve_pyomo(model: Any, options: SolveOptions) -> SolverOutcome:
    """Solve a Pyomo model on ``options.solver``, loading the incumbent into its variables."""
    if options.solver == catalogue.DEFAULT:
        return solve_highs(model, options)
    catalogue.require(options.solver)
    start = time.perf_counter()

    def stopped(message: str) -> SolverOutcome:
        wall = time.perf_counter() - start
        return SolverOutcome(
            Status.TIMEOUT, None, None, wall, options.solver, catalogue.version(options.solver), message
        )

    try:
        # Pyomo's compiler is one call without safe points: the deadline is checked after it.
        with within(options.time_limit, f"handing the model to {options.solver}"):
            mip, columns = to_arrays(model)
            check()
    except TimeLimitReached as exc:
        return stopped(str(exc))
    if options.time_limit is not None:
        left = options.time_limit - (time.perf_counter() - start)
        if left < MIN_SOLVE_S:
            return stopped(
                f"time limit spent handing the model to {options.solver} ({options.time_limit - left:.3g} s)"
            )
        options = replace(options, time_limit=left)
    solved = solve_mip(mip, options)
    if solved.values is not None:
        for var, value in zip(columns, solved.values, strict=True):
            var.set_value(float(value), skip_validation=True)
    out = solved.outcome
    if _maximised(model):
        # the objective and the bound in the model's own sense, as HiGHS's interface gives them
        out = replace(out, objective=_negated(out.objective), bound=_negated(out.bound))
    return replace(out, wall_s=time.perf_counter() - start)


def _maximised(model: Any) -> bool:
    import pyomo.environ as pyo

    return any(o.sense == pyo.maximize for o in model.component_data_objects(pyo.Objective, active=True))


def _negated(value: float | None) -> float | None:
    return None if value is None else -value
