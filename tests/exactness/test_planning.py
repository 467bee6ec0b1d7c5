"""Exactness contract, planning: exact-flow, exact-milp, exact-cpsat vs every plan."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.gpus import GpuType
from packgap.planning import Group, PlanningInstance
from tests.exactness import brute_planning as brute
from tests.exactness.contract import OPTIONS, approx, check, takes_no_solver
from tests.solvers.others import OTHER_SOLVERS


@st.composite
def instances(draw: Any, groups: int = 4, gpus: int = 3, fractional: bool = False) -> PlanningInstance:
    counts = draw(st.lists(st.integers(1, 2), min_size=1, max_size=gpus).filter(lambda c: sum(c) <= gpus))
    n = draw(st.integers(1, groups))
    time = st.floats(0.25, 9.0).map(lambda t: round(t, 3)) if fractional else st.integers(1, 6).map(float)
    return PlanningInstance(
        name="planning-brute",
        gpu_types=tuple(GpuType(f"T{k}", c) for k, c in enumerate(counts)),
        # deadline 0: already passed (every group is ready at 0); small integers: ties
        groups=tuple(
            Group(f"g{i}", tuple(draw(time) for _ in counts), float(draw(st.integers(0, 12))), (f"g{i}",))
            for i in range(n)
        ),
        tardiness_weight=draw(st.sampled_from([0.0, 1.0, 2.5])),
    )


def _check(instance: PlanningInstance, solver: str = "highs") -> None:
    optimum, solution = brute.optimum(instance)
    assert brute.FAMILY.evaluate(instance, solution).objective == approx(optimum)
    if solver == "highs":
        check("planning", instance, optimum)
    else:
        check("planning", instance, optimum, skip=takes_no_solver("planning"), options=replace(OPTIONS, solver=solver))


@settings(max_examples=15, deadline=None, derandomize=True)
@given(instances())
def test_random_plans(instance):
    _check(instance)


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
@settings(max_examples=4, deadline=None, derandomize=True)
@given(instance=instances())
def test_random_plans_on_other_solvers(solver, instance):
    _check(instance, solver)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.one_of(instances(6, 3), instances(5, 3, fractional=True)))
def test_random_plans_slow(instance):
    _check(instance)


def test_single_group_with_passed_deadline():
    instance = PlanningInstance("one", (GpuType("A", 1), GpuType("B", 2)), (Group("g", (3.0, 2.0), 0.0, ("g",)),))
    optimum, _ = brute.optimum(instance)
    assert optimum == 4.0  # on B: completion 2 + tardiness 2
    check("planning", instance, optimum)
