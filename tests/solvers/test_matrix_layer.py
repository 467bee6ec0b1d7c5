"""The solver-neutral matrix layer (``packgap.solvers.matrix``) on every back-end: the same
optimum, bound, duals and statuses as HiGHS; time limits, starts, Ctrl-C and the errors of a
solver that cannot run."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pyomo.environ as pyo
import pytest
from scipy.sparse import random as sparse_random

from packgap.errors import PackgapError, SolverUnavailableError
from packgap.result import Status
from packgap.solvers import catalogue
from packgap.solvers.matrix import ArrayMip, Columns, open_model, solve_mip
from packgap.solvers.outcome import SolveOptions
from packgap.solvers.pyomo_models import solve_pyomo, to_arrays
from tests.solvers.others import ALL_SOLVERS, OTHER_SOLVERS


def _program(seed: int, integer: bool, rows: int = 12, cols: int = 20) -> ArrayMip:
    """A random feasible program: ranged, ``>=``, ``<=`` and equality rows (x = 1 satisfies all)."""
    rng = np.random.default_rng(seed)
    a = sparse_random(rows, cols, density=0.3, random_state=seed, format="csc")
    a.data = np.round(a.data * 10) + 1
    at_one = a @ np.ones(cols)
    kind = rng.integers(0, 4, rows)
    lower = np.where(kind == 1, -np.inf, np.where(kind == 3, at_one, at_one - rng.integers(0, 5, rows)))
    upper = np.where(kind == 0, np.inf, np.where(kind == 3, at_one, at_one + rng.integers(0, 5, rows)))
    cost = rng.integers(-5, 10, cols).astype(float)
    return ArrayMip(
        cost, np.zeros(cols), np.full(cols, 3.0), np.full(cols, integer), a.indptr, a.indices, a.data, lower, upper, 2.5
    )


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
@pytest.mark.parametrize("seed", range(4))
def test_optimum_and_bound_agree_with_highs(solver: str, seed: int) -> None:
    for integer in (False, True):
        mip = _program(seed, integer)
        highs = solve_mip(mip, SolveOptions()).outcome
        other = solve_mip(mip, SolveOptions(solver=solver)).outcome
        assert highs.status == other.status == Status.OPTIMAL
        assert other.objective == pytest.approx(highs.objective, rel=1e-9, abs=1e-9)
        assert other.bound is not None and other.bound <= highs.objective + 1e-6
        assert other.solver == solver and other.version == catalogue.version(solver)


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
def test_lp_duals_follow_highs_conventions(solver: str) -> None:
    """Row duals and reduced costs as HiGHS reports them; weak duality gives the optimum back."""
    mip = _program(7, False)
    found = []
    for name in ("highs", solver):
        model = open_model(mip.row_lower, mip.row_upper, SolveOptions(solver=name))
        model.add_columns(Columns(mip.cost, mip.col_lower, mip.col_upper, mip.start, mip.index, mip.value))
        model.set_integer(False)
        found.append(model.solve(None))
    highs, other = found
    assert other.y is not None and other.dj is not None and highs.y is not None
    assert other.objective == pytest.approx(highs.objective, rel=1e-9)
    np.testing.assert_allclose(other.dj, mip.cost - mip.csr().T @ other.y, atol=1e-9)
    # Lagrangian value of the duals: y.b on the binding side plus min over the box of dj.x.
    rows = np.where(other.y > 0, mip.row_lower, mip.row_upper)
    value = float(other.y[other.y != 0] @ rows[other.y != 0]) + float(np.minimum(0, other.dj) @ mip.col_upper)
    assert value == pytest.approx(other.objective, rel=1e-7)


@pytest.mark.parametrize("solver", ALL_SOLVERS)
def test_infeasible_and_start(solver: str) -> None:
    mip = _program(3, True)
    broken = ArrayMip(**{**mip.__dict__, "row_lower": mip.row_upper + 1000.0, "row_upper": mip.row_upper + 2000.0})
    assert solve_mip(broken, SolveOptions(solver=solver)).outcome.status == Status.INFEASIBLE
    started = solve_mip(mip, SolveOptions(solver=solver), start=np.ones(mip.num_col))
    assert started.outcome.status == Status.OPTIMAL


def _hard(n: int = 60) -> ArrayMip:
    """A market-split-like equality knapsack system: minutes to prove on any solver."""
    rng = np.random.default_rng(0)
    rows = 4
    a = rng.integers(0, 100, (rows, n)).astype(float)
    rhs = np.floor(a.sum(axis=1) / 2)
    cols = [np.flatnonzero(a[:, j]) for j in range(n)]
    starts = np.concatenate([[0], np.cumsum([len(c) for c in cols])])
    index = np.concatenate(cols)
    value = np.concatenate([a[c, j] for j, c in enumerate(cols)])
    cost = np.concatenate([np.zeros(n), np.ones(2 * rows)])
    # slack columns s+ and s- per row keep it feasible; their sum is minimised
    index = np.concatenate([index, np.repeat(np.arange(rows), 2)])
    value = np.concatenate([value, np.tile([1.0, -1.0], rows)])
    starts = np.concatenate([starts, starts[-1] + np.arange(1, 2 * rows + 1)])
    upper = np.concatenate([np.ones(n), np.full(2 * rows, np.inf)])
    integer = np.concatenate([np.ones(n, bool), np.zeros(2 * rows, bool)])
    return ArrayMip(cost, np.zeros(n + 2 * rows), upper, integer, starts, index, value, rhs, rhs)


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
def test_time_limit_keeps_an_incumbent_and_a_valid_bound(solver: str) -> None:
    began = time.perf_counter()
    out = solve_mip(_hard(), SolveOptions(time_limit=0.5, solver=solver)).outcome
    assert time.perf_counter() - began < 20.0  # stopped, not run out (its precision: benchmarks/time_limits.py)
    assert out.status in (Status.TIMEOUT, Status.OPTIMAL)
    assert out.bound is None or out.objective is None or out.bound <= out.objective + 1e-9


#: Back-ends whose Ctrl-C is not honest yet, with what was seen (``packgap.solvers.xpress``).
NO_CTRL_C = {
    "xpress": "Xpress 9.9 sets SIGINT to the system default inside a MIP solve once it has run one: "
    "the Ctrl-C would end the test process",
}


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
def test_ctrl_c_stops_the_solve(solver: str) -> None:
    if solver in NO_CTRL_C:
        pytest.skip(NO_CTRL_C[solver])
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    began = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solve_mip(_hard(), SolveOptions(time_limit=30.0, solver=solver))
    assert time.perf_counter() - began < 20.0  # stopped by the interrupt, not by the 30 s limit


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
def test_pyomo_models_through_the_matrix_layer(solver: str) -> None:
    """The standard-form hand-over: bounds, integrality, ranges, offset and a maximisation."""
    m = pyo.ConcreteModel()
    m.x = pyo.Var(domain=pyo.NonNegativeIntegers, bounds=(0, 4))
    m.y = pyo.Var(bounds=(None, 3))
    m.z = pyo.Var(domain=pyo.Binary)
    m.c1 = pyo.Constraint(expr=m.x + m.y >= 1.5)
    m.c2 = pyo.Constraint(expr=pyo.inequality(0, m.x - m.y + m.z, 5))
    m.c3 = pyo.Constraint(expr=m.x == 2 * m.z + 1)
    m.o = pyo.Objective(expr=-(m.x + 2 * m.y) + 3, sense=pyo.maximize)
    mip, columns = to_arrays(m)
    assert [v.name for v in columns] == ["x", "y", "z"] and mip.offset == -3.0
    highs = solve_pyomo(m, SolveOptions())
    values = [v.value for v in columns]
    other = solve_pyomo(m, SolveOptions(solver=solver))
    assert other.status == highs.status == Status.OPTIMAL
    assert other.objective == pytest.approx(highs.objective) and [v.value for v in columns] == pytest.approx(values)


def test_unknown_and_missing_solvers_are_one_line_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(PackgapError, match="unknown solver 'glpk'"):
        SolveOptions(solver="glpk")
    monkeypatch.setattr(catalogue, "is_installed", lambda name: name == "highs")
    with pytest.raises(SolverUnavailableError, match=r"solver scip is not available: .*pip install 'packgap\[scip\]'"):
        solve_mip(_program(0, True), SolveOptions(solver="scip"))
    assert [row[1] is None for row in catalogue.installed()] == [False, True, True, True, True]
