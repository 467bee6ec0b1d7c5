"""The rate LP bound (issue 18.2): below the branch-and-bound optimum, below every policy
(preemptive Tiresias included), and certified from any prices by weak duality."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.analysis.sharing import lp_bound
from packgap.analysis.sharing.ceiling import preemptive_ceiling
from packgap.heuristics.sharing.exclusive import fifo, sjf
from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
from packgap.heuristics.sharing.tiresias import tiresias
from packgap.instances.sharing.generator import generate
from packgap.models.sharing import rate_lp
from packgap.models.sharing.branch_bound import solve
from packgap.sharing import FAMILY
from packgap.solvers.highspy_lp import HighsModel
from packgap.solvers.matrix import Columns
from packgap.solvers.outcome import SolveOptions
from tests.sharing.helpers import paired_models, tiny

POLICIES = (fifo, sjf, sjf_ffs, sjf_bsbf, tiresias)
EXAMPLES = int(os.environ.get("SHARING_EXAMPLES", "10"))


def _lp_average(instance, slots: int = 30, milp: bool = False) -> float:
    """The certified LP (or MILP) value alone (not raised to the cheap bound), as an average JCT."""
    out = lp_bound.solve(instance, slots, milp=milp)
    assert out.lp_sum is not None, out.status
    return (out.lp_sum - sum(j.arrival for j in instance.jobs)) / len(instance.jobs)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.sampled_from([10, 30]))
def test_lp_bound_is_below_the_brute_force_optimum_and_every_policy(seed: int, jobs: int, slots: int) -> None:
    inst = generate(jobs, seed, nodes=1, hours=0.05, workload="physical")
    bound = _lp_average(inst, slots)
    optimum = FAMILY.evaluate(inst, solve(inst, None, time_limit=20).solution).objective
    assert bound <= optimum * (1 + 1e-9)
    for policy in POLICIES:
        assert bound <= FAMILY.evaluate(inst, policy(inst)).objective * (1 + 1e-9), policy.__name__


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 50), st.integers(1, 2), st.integers(1, 40)), min_size=1, max_size=4),
    st.floats(1.0, 3.0),
    st.integers(1, 3),
    st.booleans(),
)
def test_lp_bound_holds_on_hand_made_pairs_of_models(
    jobs: list[tuple[float, int, int]], xi: float, models: int, milp: bool
) -> None:
    """Several models with their own ordered-pair xi, so the sharing balance rows matter; the
    LP and its completion-slot MILP, below the preemptive ceiling's schedules too."""
    inst = paired_models(jobs, xi, models)
    bound = _lp_average(inst, 12 if milp else 20, milp)
    assert bound <= preemptive_ceiling(inst) * (1 + 1e-9)
    optimum = FAMILY.evaluate(inst, solve(inst, None, time_limit=20).solution).objective
    assert bound <= optimum * (1 + 1e-9)
    assert bound <= FAMILY.evaluate(inst, tiresias(inst)).objective * (1 + 1e-9)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.0, 1.0, 2.0]))
def test_lp_bound_is_below_every_policy_on_a_cluster(seed: int, xi: float) -> None:
    inst = generate(30, seed, nodes=2, hours=1.0, xi=xi, workload="v1")
    bound = _lp_average(inst)
    for policy in POLICIES:
        assert bound <= FAMILY.evaluate(inst, policy(inst)).objective * (1 + 1e-9), policy.__name__


def _solved(inst, horizon: float = 200.0, slots: int = 10) -> tuple[rate_lp.RateLp, float]:
    lp = rate_lp.build(inst, horizon, slots, 1e6)
    model = HighsModel(lp.row_lower, lp.row_upper, SolveOptions())
    m = lp.matrix
    model.add_columns(Columns(lp.cost, lp.lower, lp.upper, m.indptr, m.indices, m.data))
    out = model.solve(None, warm=False)
    assert out.objective is not None and out.y is not None
    return lp, out.objective


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 100.0))
def test_any_prices_certify_a_value_below_the_lp_optimum(seed: int, scale: float) -> None:
    inst = tiny([(0.0, 1, 30), (5.0, 2, 20), (10.0, 1, 40)], xi=1.3, models=2)
    lp, optimum = _solved(inst)
    prices = np.random.default_rng(seed).normal(0.0, scale, len(lp.row_lower))
    assert rate_lp.dual_bound(lp, prices) <= optimum * (1 + 1e-7)


def test_one_job_alone_is_its_arrival_plus_solo_time() -> None:
    inst = tiny([(7.0, 2, 30)])
    assert _lp_average(inst) == pytest.approx(30.0, rel=1e-6)


def test_two_jobs_on_one_gpu_that_cannot_gain_by_sharing() -> None:
    """xi = 2 on one GPU: sharing buys nothing, so the bound is the single-machine optimum
    10 + 20 less one slot (mean busy dates counted from slot starts: 0.5 s slots)."""
    inst = tiny([(0.0, 1, 10), (0.0, 1, 10)], xi=2.0, gpus=1)
    _, optimum = _solved(inst, 20.0, 40)
    assert 29.5 - 1e-6 <= optimum <= 30.0 + 1e-6


def test_lp_bound_beats_the_cheap_bound_where_gangs_conflict() -> None:
    """README instance 6 jobs, seed 4: two 16-GPU jobs and two 8-GPU jobs on 16 GPUs (measured:
    cheap 1,835 s, rate LP 2,095 s, best policy 2,938 s)."""
    from packgap.analysis.sharing.exact_scaling import instance

    out = lp_bound.solve(instance(6, 4))
    assert out.lp_sum is not None and out.lp_sum > out.cheap_sum + 6 * 200


def test_an_iteration_limit_stops_the_lp_at_the_same_point_every_run() -> None:
    """Reproductions bound the LP by HiGHS iterations, not seconds: the same bound twice, below
    the LP solved to the end (any prices certify), with the limit named in its status."""
    inst = generate(40, 2, workload="v1")
    cut = [lp_bound.solve(inst, None, None, iteration_limit=30) for _ in range(2)]
    whole = lp_bound.solve(inst, None, None)
    assert cut[0] == cut[1] and cut[0].status == "Iteration limit reached"
    assert whole.status == "Optimal" and whole.lp_sum is not None
    assert cut[0].completion_sum <= whole.completion_sum + 1e-6 * whole.completion_sum
