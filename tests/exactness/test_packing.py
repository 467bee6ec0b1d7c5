"""Exactness contract, packing: exact-ti, exact-milp, exact-cpsat vs every semi-active schedule."""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.packing import PackingInstance
from tests.exactness import brute_packing as brute
from tests.exactness.contract import OPTIONS, check, takes_no_solver
from tests.packing.strategies import instances
from tests.solvers.others import OTHER_SOLVERS


@st.composite
def with_passed_deadlines(draw: Any, base: Any) -> PackingInstance:
    """Some jobs' deadlines at their arrival: late whatever any method does."""
    instance = draw(base)
    jobs = tuple(dataclasses.replace(j, deadline=j.arrival) if draw(st.booleans()) else j for j in instance.jobs)
    return dataclasses.replace(instance, jobs=jobs)


def _check(instance: PackingInstance, solver: str = "highs") -> None:
    optimum, _ = brute.optimum(instance)
    # exact-milp refuses mixed GPU demands by design (it models machines of one width)
    mixed = len({j.gpus for j in instance.jobs}) > 1
    allowed = ("exact-milp",) if mixed else ()
    if solver == "highs":
        check("packing", instance, optimum, allowed_errors=allowed)
    else:
        on = replace(OPTIONS, solver=solver)
        check("packing", instance, optimum, allowed_errors=allowed, skip=takes_no_solver("packing"), options=on)


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.one_of(instances(max_jobs=3), with_passed_deadlines(instances(max_jobs=3))))
def test_random_packings(instance):
    _check(instance)


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
@settings(max_examples=3, deadline=None, derandomize=True)
@given(instance=instances(max_jobs=3))
def test_random_packings_on_other_solvers(solver, instance):
    _check(instance, solver)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.one_of(instances(max_jobs=4), with_passed_deadlines(instances(max_jobs=4))))
def test_random_packings_slow(instance):
    _check(instance)


def test_milp_on_millisecond_jobs():
    """Issue 17: eq. 10's alpha / n times 1.5 ms completions put every objective difference at
    1e-7, inside HiGHS's tolerances, and exact-milp called pairing the two jobs (6.94e-7)
    optimal against 4.17e-7 for two singles; the model's objective is now O(1)."""
    from packgap.gpus import GpuType
    from packgap.packing import Job
    from packgap.packing.interleave import StageProfile

    p = StageProfile(0.5, 0.5, 0.5, 0.5)
    jobs = tuple(Job(f"j{i}", 0.0, 1.0, 1, 1, "m", "before_forward", (p, p)) for i in range(2))
    instance = PackingInstance(name="ms", gpu_types=(GpuType("fast", 1), GpuType("slow", 2)), jobs=jobs)
    optimum, _ = brute.optimum(instance)
    assert optimum == pytest.approx(1.5e-3 / 3600, rel=1e-12)
    assert check("packing", instance, optimum)["exact-milp"].status == "optimal"
