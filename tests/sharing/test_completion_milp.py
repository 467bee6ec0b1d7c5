"""The rate LP with completion-slot binaries (issue 18.2): its MIP dual bound lies below the
branch-and-bound optimum and below every policy and preemptive schedule (Tiresias and the
ceiling's remaining-time rules), and above the LP where it is proven."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.analysis.sharing import lp_bound
from packgap.analysis.sharing.ceiling import KEYS, RemainingTime, preemptive_ceiling
from packgap.heuristics.sharing.exclusive import fifo, sjf
from packgap.heuristics.sharing.online import run_online
from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
from packgap.heuristics.sharing.tiresias import tiresias
from packgap.instances.sharing.generator import generate
from packgap.models.sharing.branch_bound import solve
from packgap.sharing import FAMILY
from tests.sharing.helpers import tiny

POLICIES = (fifo, sjf, sjf_ffs, sjf_bsbf, tiresias)
EXAMPLES = int(os.environ.get("SHARING_EXAMPLES", "10"))


def _average(instance, slots: int, milp: bool) -> float:
    """The certified value alone (not raised to the cheap bound), as an average JCT."""
    out = lp_bound.solve(instance, slots, milp=milp)
    assert out.lp_sum is not None, out.status
    return (out.lp_sum - sum(j.arrival for j in instance.jobs)) / len(instance.jobs)


def _preemptive(instance) -> list[float]:
    out = []
    for key in KEYS.values():
        solution = run_online(instance, RemainingTime(instance, key), preemptive=True)
        FAMILY.validate(instance, solution)
        out.append(FAMILY.evaluate(instance, solution).objective)
    return out


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.integers(1, 2), st.sampled_from([8, 16]))
def test_milp_bound_is_below_the_optimum_every_policy_and_every_preemptive_schedule(
    seed: int, jobs: int, nodes: int, slots: int
) -> None:
    inst = generate(jobs, seed, nodes=nodes, hours=0.05, workload="physical")
    bound = _average(inst, slots, milp=True)
    optimum = FAMILY.evaluate(inst, solve(inst, None, time_limit=20).solution).objective
    assert bound <= optimum * (1 + 1e-9)
    for policy in POLICIES:
        assert bound <= FAMILY.evaluate(inst, policy(inst)).objective * (1 + 1e-9), policy.__name__
    for value in _preemptive(inst):
        assert bound <= value * (1 + 1e-9)
    # The MIP dual bound carries HiGHS's tolerances and its own step down (1e-6 of the sum).
    assert _average(inst, slots, milp=False) <= bound * (1 + 1e-4)


def test_preemption_beats_the_non_preemptive_optimum_and_the_bound_stays_below_it() -> None:
    """A long job then a short one on one GPU, xi = 2 (sharing gains nothing): preempting the
    long job at 1 s for the short one gives JCTs 11 and 1, average 6; without preemption the
    best is to idle until the short one arrives, JCTs 1 and 12, average 6.5. The MILP finds the
    preemptive optimum (its LP: 5.81)."""
    inst = tiny([(0.0, 1, 10), (1.0, 1, 1)], xi=2.0, gpus=1)
    optimum = FAMILY.evaluate(inst, solve(inst, None, time_limit=20).solution).objective
    ceiling = preemptive_ceiling(inst)
    assert ceiling == pytest.approx(6.0, rel=1e-9)
    assert optimum == pytest.approx(6.5, rel=1e-9)
    assert _average(inst, 22, milp=True) == pytest.approx(ceiling, rel=1e-5)
    assert _average(inst, 22, milp=False) < 5.9


def test_completion_slots_close_the_mean_busy_date_slack() -> None:
    """Two 10 s jobs on one GPU, xi = 2: the optimum is 10 + 20; the LP counts mean busy dates
    from slot starts (29.5 with 0.5 s slots), the MILP finishes each job at its slot's start
    plus the work done in it."""
    inst = tiny([(0.0, 1, 10), (0.0, 1, 10)], xi=2.0, gpus=1)
    assert _average(inst, 40, milp=True) == pytest.approx(15.0, rel=1e-5)


def test_milp_beats_the_lp_on_a_readme_instance() -> None:
    """README instance 6 jobs, seed 4 (measured: rate LP 2,048 s at 30 slots, MILP 2,444 s,
    non-preemptive optimum 2,833 s, best policy 2,938 s)."""
    from packgap.analysis.sharing.exact_scaling import instance

    inst = instance(6, 4)
    assert _average(inst, 30, milp=True) > _average(inst, 30, milp=False) + 300


def test_certified_gap_never_falls_below_the_preemptive_floor() -> None:
    """The instance above: the best policy averages 6.5 s at best (waiting for the short job)
    or more, the preemptive schedule 6 s, so no valid bound certifies a gap below 1 - 6 / best."""
    from packgap.analysis.sharing.certified import measure_instance

    gap = measure_instance(tiny([(0.0, 1, 10), (1.0, 1, 1)], xi=2.0, gpus=1), 0, 22, milp=True)
    assert gap.preemptive_s == pytest.approx(6.0, rel=1e-9)
    assert gap.floor == pytest.approx(1 - 6.0 / gap.best_s, rel=1e-9) and gap.floor > 0
    assert gap.gap >= gap.floor - 1e-6


@pytest.mark.parametrize(("memory", "expected"), [(2.4, 15.0), (10.0, 10.0)])
def test_sharing_that_needs_a_smaller_sub_batch_slows_the_job_alone_too(memory: float, expected: float) -> None:
    """Two 10 s jobs on one GPU, xi = 1 (sharing free): with 10 GB both share at their solo
    sub-batch (average 10 s); with 2.4 GB a worker at b* = 4 (1.4 GB) does not fit beside one at
    b = 1 (1.1 GB), so sharing needs b = 3, two accumulation steps, half pace all the job's life:
    sharing gains nothing and the optimum runs them one after the other (average 15 s). The
    MILP's sub-batch gate z_j finds both; the LP alone relaxes the first to 14.5 s."""
    inst = tiny([(0.0, 1, 10), (0.0, 1, 10)], xi=1.0, gpus=1, memory=memory)
    optimum = FAMILY.evaluate(inst, solve(inst, None, time_limit=20).solution).objective
    assert optimum == pytest.approx(expected, rel=1e-9)
    assert _average(inst, 20, milp=True) == pytest.approx(expected, rel=1e-5)
