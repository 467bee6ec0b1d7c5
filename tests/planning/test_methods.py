"""Every planning method validates; exact <= heuristics; the three exact models agree."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from packgap import jsonio
from packgap.analysis.planning.runs import horn_flow
from packgap.analysis.registry import methods
from packgap.analysis.run import check_against_optimum, solve
from packgap.instances.planning.generator import generate
from packgap.planning import FAMILY
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions

OPTIONS = SolveOptions(time_limit=20, seed=0)
HEURISTICS = ("mchp", "fifo", "edf")

instances = st.builds(
    generate,
    groups=st.integers(1, 6),
    seed=st.integers(0, 10_000),
    gpu_types=st.sampled_from([(("A", 1, 1.0), ("B", 1, 1.5)), (("A", 1, 1.0), ("B", 2, 1.5)), (("A", 2, 1.0),)]),
    tardiness_weight=st.sampled_from([0.0, 1.0, 2.5]),
)


def run_all(instance, names):
    return check_against_optimum([solve(FAMILY, instance, methods("planning")[n], options=OPTIONS) for n in names])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instance=instances)
def test_exact_cpsat_below_every_heuristic(instance):
    results = {r.method: r for r in run_all(instance, (*HEURISTICS, "exact-flow", "exact-cpsat"))}
    exact = results["exact-cpsat"]
    assert exact.status == Status.OPTIMAL
    for name in (*HEURISTICS, "exact-flow"):
        assert results[name].objective >= exact.objective - 1e-6
        assert results["exact-flow"].bound <= exact.objective + 1e-6


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    instance=st.builds(
        generate, groups=st.integers(1, 4), seed=st.integers(0, 1000), gpu_types=st.just((("A", 1, 1.0), ("B", 2, 1.5)))
    )
)
def test_milp_and_cpsat_agree(instance):
    results = {r.method: r for r in run_all(instance, ("exact-milp", "exact-cpsat"))}
    assert results["exact-milp"].status == results["exact-cpsat"].status == Status.OPTIMAL
    assert results["exact-milp"].objective == pytest.approx(results["exact-cpsat"].objective, rel=1e-9)


@settings(max_examples=15, deadline=None)
@given(
    instance=st.builds(generate, groups=st.integers(1, 12), seed=st.integers(0, 1000), tardiness_weight=st.just(0.0))
)
def test_flow_is_exact_without_tardiness_and_backends_agree(instance):
    result = solve(FAMILY, instance, methods("planning")["exact-flow"], options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.objective == pytest.approx(result.bound, rel=1e-9)
    assert horn_flow(instance, backend="networkx")[1] == pytest.approx(result.bound, rel=1e-12)


def test_flow_agrees_with_cpsat_without_tardiness():
    instance = generate(5, seed=11, gpu_types=(("A", 1, 1.0), ("B", 2, 1.5)), tardiness_weight=0.0)
    results = {r.method: r for r in run_all(instance, ("exact-flow", "exact-cpsat", "exact-milp"))}
    assert results["exact-flow"].objective == pytest.approx(results["exact-cpsat"].objective)
    assert results["exact-milp"].objective == pytest.approx(results["exact-cpsat"].objective)


def test_same_seed_same_bytes():
    a = jsonio.dumps(FAMILY.instance_to_dict(generate(20, seed=5)))
    b = jsonio.dumps(FAMILY.instance_to_dict(generate(20, seed=5)))
    c = jsonio.dumps(FAMILY.instance_to_dict(generate(20, seed=6)))
    assert a == b != c


def test_golden_objectives():
    """Pinned objectives of every heuristic on one small instance (pymoo-style golden values)."""
    instance = generate(8, seed=7, gpu_types=(("A800", 1), ("RTX4090", 2)))
    got = {r.method: r.objective for r in run_all(instance, (*HEURISTICS, "exact-flow", "exact-cpsat"))}
    assert got == {
        "mchp": 59586.0,
        "fifo": 63194.0,
        "edf": 57238.0,
        "exact-flow": 55940.0,
        "exact-cpsat": 55940.0,
    }
    assert set(HEURISTICS) | {"exact-flow", "exact-milp", "exact-cpsat"} == set(methods("planning"))


def test_unknown_parameter_fails_loudly(table5):
    from packgap.errors import PackgapError

    with pytest.raises(PackgapError, match="no parameter colour"):
        solve(FAMILY, table5, methods("planning")["mchp"], options=OPTIONS, params={"colour": 1})
