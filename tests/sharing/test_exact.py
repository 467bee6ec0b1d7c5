"""Exact methods: the bound is below everything, B&B is below every non-preemptive heuristic."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.heuristics.sharing.exclusive import fifo, sjf
from packgap.heuristics.sharing.pair import pair_decision
from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
from packgap.heuristics.sharing.tiresias import tiresias
from packgap.instances.sharing.generator import generate
from packgap.models.sharing.bound import average_jct_lower_bound
from packgap.models.sharing.branch_bound import solve
from packgap.sharing import FAMILY
from tests.sharing.helpers import tiny

NON_PREEMPTIVE = (fifo, sjf, sjf_ffs, sjf_bsbf)


def small(seed: int, jobs: int = 5):
    return generate(jobs, seed, nodes=1, hours=0.05, workload="physical")


@settings(max_examples=int(os.environ.get("SHARING_EXAMPLES", "10")), deadline=None)
@given(st.integers(0, 10_000))
def test_branch_and_bound_is_optimal_below_every_heuristic(seed: int) -> None:
    inst = small(seed)
    scores = {f.__name__: FAMILY.evaluate(inst, f(inst)).objective for f in NON_PREEMPTIVE}
    out = solve(inst, None, time_limit=20)
    FAMILY.validate(inst, out.solution)
    optimum = FAMILY.evaluate(inst, out.solution).objective
    assert out.proven
    assert optimum == pytest.approx(out.sum_completion / 5 - sum(j.arrival for j in inst.jobs) / 5, rel=1e-6)
    for name, value in scores.items():
        assert optimum <= value * (1 + 1e-9), name
    assert average_jct_lower_bound(inst) <= optimum * (1 + 1e-9)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.0, 1.0, 2.0]))
def test_cheap_bound_is_below_every_policy_preemptive_or_not(seed: int, xi: float) -> None:
    inst = generate(30, seed, nodes=2, hours=1.0, xi=xi, workload="v1")
    bound = average_jct_lower_bound(inst)
    for policy in (*NON_PREEMPTIVE, tiresias):
        assert bound <= FAMILY.evaluate(inst, policy(inst)).objective * (1 + 1e-9), policy.__name__


@pytest.mark.parametrize(("i_r", "i_n", "xi"), [(100, 50, 1.2), (100, 50, 2.0), (60, 50, 3.0), (10, 400, 1.5)])
def test_two_jobs_on_one_gpu_reproduce_theorem_1(i_r: int, i_n: int, xi: float) -> None:
    """Both wait at t = 0: Theorem 1 with the shorter job as R (sequential = shortest first)."""
    inst = tiny([(0.0, 1, i_r), (0.0, 1, i_n)], xi=xi, gpus=1)
    out = solve(inst, None, time_limit=10)
    d = pair_decision(float(min(i_r, i_n)), float(max(i_r, i_n)), xi, xi)
    assert out.proven
    assert FAMILY.evaluate(inst, out.solution).objective == pytest.approx(min(d.t_con, d.t_seq))


def test_incumbent_is_kept_when_nothing_beats_it() -> None:
    inst = tiny([(0.0, 1, 10)], gpus=1)
    out = solve(inst, sjf(inst), time_limit=5)
    assert out.proven and FAMILY.evaluate(inst, out.solution).objective == pytest.approx(10.0)


@settings(max_examples=2, deadline=None)
@given(st.integers(0, 10_000))
def test_time_indexed_bounds_hold_and_agree_with_branch_and_bound(seed: int) -> None:
    """MILP and CP-SAT bounds lie below the B&B optimum and every policy; a closed gap is the optimum."""
    from packgap.analysis.registry import method
    from packgap.analysis.run import solve as run_method
    from packgap.solvers.outcome import SolveOptions

    inst = small(seed, jobs=4)
    optimum = FAMILY.evaluate(inst, solve(inst, None, time_limit=20).solution).objective
    tiresias_jct = FAMILY.evaluate(inst, tiresias(inst)).objective
    for name in ("exact-milp", "exact-cpsat"):
        r = run_method(FAMILY, inst, method("sharing", name), options=SolveOptions(time_limit=2), params={"slots": 8})
        assert r.bound is not None and r.objective is not None
        assert r.bound <= optimum * (1 + 1e-6), name
        assert r.bound <= tiresias_jct * (1 + 1e-6), name
        if r.gap is not None and r.gap < 1e-9:
            assert r.objective == pytest.approx(optimum, rel=1e-6)


@pytest.mark.parametrize(
    "jobs",
    [[(0.0, 1, 10), (5.0, 1, 20)], [(0.0, 2, 10), (12.0, 2, 6), (30.0, 1, 8)]],
)
def test_branch_and_bound_and_milp_agree_where_both_prove_the_optimum(jobs: list[tuple[float, int, int]]) -> None:
    """Jobs that never need to meet: the time-indexed relaxation closes its gap (its replayed
    schedule meets its bound), and its optimum is the branch and bound's."""
    from packgap.analysis.registry import method
    from packgap.analysis.run import solve as run_method
    from packgap.result import Status
    from packgap.solvers.outcome import SolveOptions

    inst = tiny(jobs, gpus=2)
    out = solve(inst, None, time_limit=10)
    assert out.proven
    r = run_method(
        FAMILY, inst, method("sharing", "exact-milp"), options=SolveOptions(time_limit=10), params={"slots": 8}
    )
    assert r.status == Status.OPTIMAL and r.gap is not None and r.gap < 1e-9
    assert r.objective == pytest.approx(FAMILY.evaluate(inst, out.solution).objective, rel=1e-9)
