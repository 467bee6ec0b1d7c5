"""The registered exact packing methods against a brute force and against each other (issue 11)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from packgap.analysis.packing.methods import METHODS, PIPELINE_NAMES
from packgap.analysis.run import solve
from packgap.errors import PackgapError
from packgap.heuristics.packing.stages import PLANNERS
from packgap.models.packing.cpsat import bound, build_cpsat
from packgap.packing import FAMILY, PackingInstance
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions
from tests.deadlines import cannot_build
from tests.packing.strategies import grid_instances, instances
from tests.packing.test_exact import _solve
from tests.packing.test_exact_brute import brute_force

BY_NAME = {m.name: m for m in METHODS}
TOL = 1e-6
QUICK = SolveOptions(time_limit=2.0)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(max_jobs=4))
def test_relaxed_cpsat_bound_is_a_certificate_off_the_grid(inst: PackingInstance) -> None:
    """Data off every grid, coarse ticks: the bound still never passes the optimum."""
    optimum = brute_force(inst)
    for tick in (0.0, 1.0):
        out, value = _solve("exact-cpsat", inst, hint="none", resolution=tick)
        assert out.bound is not None and out.bound <= optimum + TOL * max(1.0, abs(optimum))
        assert value >= optimum - TOL * max(1.0, abs(optimum))


def test_feasible_rounding_reports_no_bound_off_the_grid() -> None:
    from packgap.instances.packing.generator import generate

    inst = generate(8, 3)
    cp = build_cpsat(inst, rounding="feasible", tick=1.0)
    assert not cp.exact and bound(cp, 123.0) is None
    assert bound(build_cpsat(inst, tick=1.0), 123.0) is not None


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_instances())
def test_ti_cpsat_and_milp_agree_where_they_prove_optimality(inst: PackingInstance) -> None:
    answers = {name: _solve(name, inst) for name in ("exact-ti", "exact-cpsat", "exact-milp")}
    proven = [value for out, value in answers.values() if out.status == Status.OPTIMAL]
    assert answers["exact-ti"][0].status == Status.OPTIMAL
    for value in proven:
        assert value == pytest.approx(proven[0], rel=1e-6, abs=1e-9)
    for out, _ in answers.values():
        assert out.bound is not None and out.bound <= min(proven) + TOL * max(1.0, abs(min(proven)))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_instances(max_jobs=4, mixed=True))
def test_ti_takes_several_gpu_demands(inst: PackingInstance) -> None:
    out, value = _solve("exact-ti", inst, QUICK)
    assert out.bound is not None and out.bound <= value + TOL
    cp, v_cp = _solve("exact-cpsat", inst, QUICK)
    if out.status == cp.status == Status.OPTIMAL:
        assert value == pytest.approx(v_cp, rel=1e-6, abs=1e-9)
    if len({j.gpus for j in inst.jobs}) > 1:
        with pytest.raises(PackgapError, match="one GPU demand"):
            _solve("exact-milp", inst)


def test_exact_cpsat_out_of_time_while_building_keeps_the_best_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under load the 30-job model took the whole 4 s limit to build and the run returned no
    answer (a CLI interrupt test failed on it): it now keeps its hint, the best pipeline. The
    hint is computed under the limit too: a 1 ms limit keeps the pipelines that finished, or
    the cheapest one run after the deadline."""
    from packgap.analysis.packing import runs
    from packgap.instances.packing.generator import generate

    inst = generate(30, 0)
    monkeypatch.setattr(runs.cp_packing, "build_cpsat", cannot_build)
    result = solve(FAMILY, inst, BY_NAME["exact-cpsat"], options=SolveOptions(time_limit=60.0))
    assert result.status == Status.TIMEOUT and "answer = the hint, bound = closed-form" in result.message
    pipelines = [solve(FAMILY, inst, BY_NAME[m], options=SolveOptions()).objective for m in PIPELINE_NAMES]
    assert result.objective == min(p for p in pipelines if p is not None)
    assert result.bound is not None and 0 < result.bound <= result.objective
    cut = solve(FAMILY, inst, BY_NAME["exact-cpsat"], options=SolveOptions(time_limit=1e-3))
    assert cut.status == Status.TIMEOUT and cut.bound == result.bound
    assert cut.objective is not None and cut.objective >= result.objective


@pytest.mark.parametrize("packer", ["dab", "blossom", "none"])
def test_exact_plan_runs_under_a_time_limit_and_keeps_its_heuristic_plan(packer: str) -> None:
    """A packer's exact planning is a CP-SAT search (one ran for hours at 20 jobs): it gets
    the exact methods' default limit, and a limit spent before the search returns the best
    heuristic plan of the packer's groups, status timeout, not nothing."""
    from packgap.analysis.method import DEFAULT_EXACT_TIME_LIMIT
    from packgap.instances.packing.generator import generate

    method = BY_NAME[f"{packer}+exact-plan"]
    assert method.options_for(SolveOptions()).time_limit == DEFAULT_EXACT_TIME_LIMIT
    inst = generate(20, 1)
    result = solve(FAMILY, inst, method, options=SolveOptions(time_limit=1e-3))
    assert result.status == Status.TIMEOUT and "best heuristic plan" in result.message
    plans = [solve(FAMILY, inst, BY_NAME[f"{packer}+{p}"], options=SolveOptions()).objective for p in PLANNERS]
    assert result.objective == min(p for p in plans if p is not None)


@pytest.mark.parametrize("packer", ["dab", "none"])
def test_exact_plan_is_never_worse_than_the_heuristic_planners(packer: str) -> None:
    """Issue 11: at N = 40 dab+exact-plan lost to dab+mchp after a timeout; now it starts
    from the best heuristic plan of the same groups and keeps the better answer."""
    from packgap.instances.packing.generator import generate

    inst = generate(40, 3)
    options = SolveOptions(time_limit=1.0)
    exact = solve(FAMILY, inst, BY_NAME[f"{packer}+exact-plan"], options=options)
    assert exact.objective is not None
    for planner in ("mchp", "fifo", "edf"):
        heuristic = solve(FAMILY, inst, BY_NAME[f"{packer}+{planner}"], options=options)
        assert heuristic.objective is not None
        assert exact.objective <= heuristic.objective + 1e-12


def test_exact_milp_refuses_what_it_cannot_build_in_time() -> None:
    from packgap.instances.packing.generator import generate

    inst = generate(40, 3)
    result = solve(FAMILY, inst, BY_NAME["exact-milp"], options=SolveOptions(time_limit=5.0))
    assert result.status == Status.TIMEOUT and "tiny cross-check" in result.message


def test_exact_milp_without_an_incumbent_keeps_the_best_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33.4: at 12 jobs and 10 s HiGHS stopped without an incumbent and the timeout had
    no objective; it now carries the best pipeline's answer beside the solver's bound."""
    from packgap.analysis.method import MethodOutput
    from packgap.analysis.packing import runs
    from packgap.instances.packing.generator import generate

    inst = generate(12, 0)
    floor = runs.lower_bound(inst).objective
    stopped = MethodOutput(None, Status.TIMEOUT, floor, "highs", "1", "time limit reached", internal_objective=1.0)
    monkeypatch.setattr(runs, "_exact_milp", lambda instance, ctx, found: stopped)
    result = solve(FAMILY, inst, BY_NAME["exact-milp"], options=SolveOptions(time_limit=10.0))
    pipelines = [solve(FAMILY, inst, BY_NAME[m], options=SolveOptions()).objective for m in PIPELINE_NAMES]
    assert result.status == Status.TIMEOUT and result.objective == min(p for p in pipelines if p is not None)
    assert result.bound == floor and result.certified_gap is not None and result.certified_gap > 0
    assert "no incumbent" in result.message and "internal_objective" not in result.metrics


@pytest.mark.slow
def test_exact_milp_times_out_with_an_objective_at_12_jobs() -> None:
    """The case of issue 33.4 as a user runs it (10 s)."""
    from packgap.instances.packing.generator import generate

    result = solve(FAMILY, generate(12, 0), BY_NAME["exact-milp"], options=SolveOptions(time_limit=10.0))
    assert result.objective is not None and result.certified_gap is not None
