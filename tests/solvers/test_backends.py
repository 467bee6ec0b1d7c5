"""Solver back-ends: reference cross-checks, the highspy/ortools coexistence, statuses."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pyomo.environ as pyo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.deadline import within
from packgap.errors import PackgapError, TimeLimitReached
from packgap.result import Status
from packgap.solvers.cpsat import new_model, solve_cpsat
from packgap.solvers.flow import assignment, capacitated_assignment, integer_costs, min_cost_flow
from packgap.solvers.matching import max_weight_matching
from packgap.solvers.outcome import SolveOptions
from packgap.solvers.pyomo_models import solve_pyomo


def test_highspy_and_ortools_share_one_process():
    """DESIGN.md pitfall: only highspy 1.12.0 coexists with ortools' bundled libhighs."""
    import highspy
    from ortools.graph.python import min_cost_flow as mcf
    from ortools.sat.python import cp_model

    h = highspy.Highs()
    assert (h.versionMajor(), h.versionMinor()) == (1, 12)
    assert cp_model.CpModel() is not None and mcf.SimpleMinCostFlow() is not None


graphs = st.integers(2, 9).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(st.sampled_from(list(itertools.combinations(range(n), 2))), st.floats(0.0, 10.0)),
            unique_by=lambda e: e[0],
            max_size=20,
        ),
    )
)


@settings(max_examples=60, deadline=None)
@given(graph=graphs)
def test_rustworkx_matching_weight_equals_networkx(graph):
    n, raw = graph
    edges = [(u, v, round(w, 3)) for (u, v), w in raw]
    fast = max_weight_matching(n, edges, backend="rustworkx")
    reference = max_weight_matching(n, edges, backend="networkx")
    assert fast.weight == pytest.approx(reference.weight, abs=1e-9)
    used = [x for pair in fast.pairs for x in pair]
    assert len(used) == len(set(used))


@settings(max_examples=40, deadline=None)
@given(costs=st.lists(st.lists(st.integers(0, 50), min_size=4, max_size=4), min_size=1, max_size=4))
def test_flow_backends_and_assignment_agree(costs):
    rows, cols = len(costs), 4
    tails = [0] * rows + [1 + r for r in range(rows) for _ in range(cols)] + [1 + rows + c for c in range(cols)]
    heads = [1 + r for r in range(rows)] + [1 + rows + c for _ in range(rows) for c in range(cols)]
    heads += [1 + rows + cols] * cols
    caps = [1] * len(tails)
    unit = [0] * rows + [c for row in costs for c in row] + [0] * cols
    supplies = [rows] + [0] * (rows + cols) + [-rows]
    a = min_cost_flow(tails, heads, caps, unit, supplies, backend="ortools")
    b = min_cost_flow(tails, heads, caps, unit, supplies, backend="networkx")
    _, _, lsa = assignment(np.array(costs, dtype=float))
    assert a.status == b.status == Status.OPTIMAL
    assert a.cost == b.cost == lsa


def test_integer_costs_floor_gives_a_lower_bound():
    costs = np.array([0.0015, 2.9999, 7.0])
    assert integer_costs(costs, 1e-3).tolist() == [1, 2999, 7000]


def test_infeasible_flow_is_a_status():
    result = min_cost_flow([0], [1], [1], [1], [2, -2])
    assert result.status == Status.INFEASIBLE and result.cost is None


def test_highs_statuses_and_bound():
    model = pyo.ConcreteModel()
    model.x = pyo.Var(range(3), domain=pyo.Binary)
    model.c = pyo.Constraint(expr=sum(model.x[i] for i in range(3)) >= 2)
    model.o = pyo.Objective(expr=3 * model.x[0] + 2 * model.x[1] + 4 * model.x[2])
    out = solve_pyomo(model, SolveOptions(time_limit=10))
    assert out.status == Status.OPTIMAL and out.objective == pytest.approx(5) and out.bound == pytest.approx(5)
    model.bad = pyo.Constraint(expr=sum(model.x[i] for i in range(3)) >= 4)
    assert solve_pyomo(model, SolveOptions()).status == Status.INFEASIBLE


def test_the_hand_over_to_highs_is_chunked_and_stops_between_chunks():
    """Rows go to HiGHS a chunk at a time (issue 31): the answer is the one-piece hand-over's,
    and a deadline already passed stops it at the first check with the model left intact."""
    model = pyo.ConcreteModel()
    model.x = pyo.Var(range(300), bounds=(0, 1))
    model.pair = pyo.Constraint(range(299), rule=lambda m, i: m.x[i] + m.x[i + 1] >= 1)
    model.o = pyo.Objective(expr=sum((1 + i % 3) * model.x[i] for i in range(300)))
    out = solve_pyomo(model, SolveOptions(time_limit=30))
    assert out.status == Status.OPTIMAL and out.objective == pytest.approx(out.bound)
    assert pyo.value(model.o) == pytest.approx(out.objective)
    with within(1e-6, "outer"):
        time.sleep(1e-3)
        cut = solve_pyomo(model, SolveOptions())
    assert cut.status == Status.TIMEOUT and "while handing the model to HiGHS" in cut.message
    assert all(row.active for row in model.pair.values())


def test_a_flow_that_cannot_finish_in_time_is_not_started():
    costs = np.zeros((1000, 1000), dtype=np.int64)
    with within(0.5, "planning"), pytest.raises(TimeLimitReached, match="min-cost flow over 1,000,000 arcs"):
        capacitated_assignment(costs, np.ones(1000, dtype=np.int64))
    assert capacitated_assignment(costs[:5, :5], np.ones(5, dtype=np.int64)).cost == 0


def test_cpsat_time_limit_is_a_status():
    model = new_model()
    xs = [model.new_int_var(0, 10**6, f"x{i}") for i in range(40)]
    for i in range(39):
        model.add(xs[i] * 7 + xs[i + 1] * 13 != 1000 + i)
    model.add(sum(xs) >= 10**6)
    model.minimize(sum((i % 7 + 1) * x for i, x in enumerate(xs)))
    outcome, _ = solve_cpsat(model, SolveOptions(time_limit=0.01))
    assert outcome.status in (Status.TIMEOUT, Status.OPTIMAL)
    infeasible = new_model()
    y = infeasible.new_int_var(0, 1, "y")
    infeasible.add(y >= 2)
    assert solve_cpsat(infeasible, SolveOptions())[0].status == Status.INFEASIBLE


@pytest.mark.parametrize("kwargs", [{"time_limit": 0}, {"mip_gap": 1.5}, {"threads": 0}])
def test_bad_options_are_clear_errors(kwargs):
    with pytest.raises(PackgapError):
        SolveOptions(**kwargs)


def test_array_mip_mixed_integrality_and_offset():
    """min x + 3y + 10 s.t. x + y >= 1.5, x in [0, 2], y in [0, 1]: with x integer the optimum
    is x = 2 (12), relaxed x = 1.5 (11.5); the offset reaches objective and bound."""
    from packgap.solvers.matrix import ArrayMip, solve_mip

    def mip(integer: list[bool]) -> ArrayMip:
        return ArrayMip(
            cost=np.array([1.0, 3.0]),
            col_lower=np.zeros(2),
            col_upper=np.array([2.0, 1.0]),
            integer=np.array(integer),
            start=np.array([0, 1, 2], dtype=np.int32),
            index=np.zeros(2, dtype=np.int32),
            value=np.ones(2),
            row_lower=np.array([1.5]),
            row_upper=np.array([np.inf]),
            offset=10.0,
        )

    mixed = solve_mip(mip([True, False]), SolveOptions()).outcome
    assert mixed.status == Status.OPTIMAL
    assert mixed.objective == pytest.approx(12.0) and mixed.bound == pytest.approx(12.0)
    relaxed = solve_mip(mip([False, False]), SolveOptions()).outcome
    assert relaxed.objective == pytest.approx(11.5) and relaxed.bound == pytest.approx(11.5)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31))
def test_mip_without_probing_finds_the_same_optimum(seed: int) -> None:
    """exact-ti turns HiGHS's probing off (it ignores the time limit): on random set-covering
    programs the optimum is the same with and without it."""
    from packgap.solvers.highspy_lp import PROBING_OFF, HighsModel
    from packgap.solvers.matrix import Columns

    rng = np.random.default_rng(seed)
    rows, cols = 6, 12
    cover = rng.random((rows, cols)) < 0.4
    cover[rng.integers(rows), :] = False
    cover[:, 0] = True  # one column covers everything: always feasible
    starts = np.concatenate([[0], np.cumsum(cover.sum(axis=0))])
    index = np.concatenate([np.flatnonzero(cover[:, j]) for j in range(cols)])
    columns = Columns(
        rng.integers(1, 20, cols).astype(float), np.zeros(cols), np.ones(cols), starts, index, np.ones(len(index))
    )
    values = []
    for probing in (True, False):
        model = HighsModel(np.ones(rows), np.full(rows, np.inf), SolveOptions())
        model.add_columns(columns)
        model.set_integer(True)
        model.set_probing(probing)
        assert model.highs.getOptionValue("presolve_rule_off")[1] == (0 if probing else PROBING_OFF)
        solution = model.solve(None)
        assert solution.status == Status.OPTIMAL and solution.objective is not None
        values.append(solution.objective)
    assert values[0] == pytest.approx(values[1], abs=1e-9)
