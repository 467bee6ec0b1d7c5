"""Exact calibration: frontier == exhaustive, exact <= every heuristic, grids nest, the bound holds."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from packgap.calibration import FAMILY
from packgap.heuristics.calibration.gimbal import coordinate
from packgap.heuristics.calibration.state import free_competition, liss_only, with_liss
from packgap.instances.calibration.jobsets import generate, table3
from packgap.models.calibration import implicit
from packgap.models.calibration.continuous import continuous_bound
from packgap.models.calibration.frontier import optimise
from packgap.models.calibration.grid import grid_options, shares
from packgap.models.calibration.layout import layout

OBJECTIVES = st.sampled_from(["jct", "makespan", "deadline"])


def grid_optimum(instance, granularity=None):
    g = instance.granularity if granularity is None else granularity
    lay = layout(instance)
    found = optimise(lay, grid_options(lay, g))
    sol = with_liss(instance, shares(lay, g, found.choice)).solution(instance)
    return found, sol


@settings(max_examples=20, deadline=None)
@given(jobs=st.integers(1, 4), seed=st.integers(0, 5000), objective=OBJECTIVES, g=st.sampled_from([25.0, 34.0, 50.0]))
def test_frontier_equals_implicit_enumeration(jobs, seed, objective, g):
    instance = generate(jobs, seed, objective=objective, granularity=g)
    lay = layout(instance)
    options = grid_options(lay, g)
    assume(math.prod(len(a) for a, _ in options) <= 500_000)
    brute = implicit.search(lay, options)
    fast = optimise(lay, options)
    assert fast.objective == pytest.approx(brute.objective, rel=1e-12, abs=1e-9)


@settings(max_examples=20, deadline=None)
@given(jobs=st.integers(2, 6), seed=st.integers(0, 5000), objective=OBJECTIVES)
def test_exact_below_every_heuristic(jobs, seed, objective):
    instance = generate(jobs, seed, objective=objective)
    found, sol = grid_optimum(instance)
    FAMILY.validate(instance, sol)
    exact = FAMILY.evaluate(instance, sol).objective
    assert exact == pytest.approx(found.objective, rel=1e-9, abs=1e-9)
    for cal in (coordinate(instance).best, coordinate(instance, early_exit=False).best):
        assert exact <= cal.objective(instance) + 1e-9
    for cal in (free_competition(instance), liss_only(instance)):
        assert exact <= cal.objective(instance) + 1e-9


@settings(max_examples=15, deadline=None)
@given(jobs=st.integers(2, 5), seed=st.integers(0, 5000), objective=OBJECTIVES, g=st.sampled_from([5.0, 10.0, 25.0]))
def test_finer_grid_never_worse_and_bound_below(jobs, seed, objective, g):
    instance = generate(jobs, seed, objective=objective, granularity=g)
    fine, _ = grid_optimum(instance, g)
    coarse, _ = grid_optimum(instance, 2 * g)
    assert fine.objective <= coarse.objective + 1e-9
    bound, _ = continuous_bound(layout(instance), width=2.0, cap=100)
    assert bound <= fine.objective + 1e-9


@pytest.mark.parametrize("name", [f"JC{i}" for i in range(1, 9)])
def test_table3_exact_vs_gimbal(name):
    instance = table3(name)
    found, sol = grid_optimum(instance)
    FAMILY.validate(instance, sol)
    assert found.objective <= coordinate(instance).objective + 1e-9
    bound, _ = continuous_bound(layout(instance))
    assert bound <= found.objective
    assert bound >= 0.97 * found.objective


def _grid_and_frontier(instance, params=None):
    from packgap.analysis.registry import kits
    from packgap.analysis.run import solve
    from packgap.solvers.outcome import SolveOptions

    methods = {m.name: m for m in kits()["calibration"].methods}
    options = SolveOptions(time_limit=60, seed=0)
    return (
        solve(FAMILY, instance, methods["exact-grid"], options=options, params=params),
        solve(FAMILY, instance, methods["exact-frontier"], options=options),
    )


@pytest.mark.parametrize(("seed", "optimum"), [(3, 7360.477665829255), (10, 10403.672108635219)])
def test_exact_grid_equals_exact_frontier_on_8_job_sets(seed, optimum):
    """Issue 17: 121^16 points (8 jobs) wrapped negative as an int64 product, passed the
    ``max_points`` guard, scanned nothing and reported the all-100 % point optimal (7875.79 and
    14,029 on these sets, bound inf); then exact-grid refused the grid. Its implicit enumeration
    now proves the optimum exact-frontier's independent Pareto merge finds."""
    from packgap.analysis.run import check_against_optimum
    from packgap.result import Status

    grid, frontier = _grid_and_frontier(generate(8, seed))
    for r in (grid, frontier):
        assert r.status == Status.OPTIMAL, r.message
        assert r.objective == pytest.approx(optimum, rel=1e-9) == r.bound
    assert grid.metrics["evaluations"] < 10_000
    check_against_optimum([grid, frontier])


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [6, 7, 8])
def test_exact_grid_equals_exact_frontier_on_generated_sets(jobs):
    from packgap.result import Status

    for seed in range(20):
        grid, frontier = _grid_and_frontier(generate(jobs, seed))
        assert grid.status == frontier.status == Status.OPTIMAL, (seed, grid.message)
        assert grid.objective == pytest.approx(frontier.objective, rel=1e-9), seed


def test_exact_grid_refuses_beyond_max_points_with_the_grid_size():
    from packgap.result import Status

    grid, _ = _grid_and_frontier(generate(8, 3), {"max_points": 50})
    assert grid.status == Status.ERROR and grid.objective is None and grid.bound is None
    assert f"more than 50 nodes of a grid of {121**16:,} points" in grid.message
