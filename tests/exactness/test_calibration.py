"""Exactness contract, calibration: exact-grid, exact-frontier, continuous-bound vs every grid point."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from packgap.calibration import instance as instance_module
from packgap.instances.calibration.jobsets import generate
from tests.calibration.conftest import tiny_document
from tests.exactness import brute_calibration as brute
from tests.exactness.contract import check

FAMILY = "calibration"
OBJECTIVES = st.sampled_from(["jct", "makespan", "deadline"])


def _check(instance: Any) -> None:
    optimum, _ = brute.optimum(instance)
    check(FAMILY, instance, optimum)


def _generated(draw: Any, jobs: int, max_points: int) -> Any:
    instance = generate(
        draw(st.integers(1, jobs)),
        draw(st.integers(0, 10_000)),
        objective=draw(OBJECTIVES),
        granularity=draw(st.sampled_from([50.0, 34.0, 25.0])),
    )
    assume(brute.points(instance) <= max_points)
    return instance


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.data())
def test_generated_sets(data):
    _check(_generated(data.draw, 3, 800))


@pytest.mark.slow
@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.data())
def test_generated_sets_slow(data):
    _check(_generated(data.draw, 5, 20_000))


def _tiny(granularity: float = 25, **changes: Any) -> Any:
    return instance_module.from_dict(tiny_document(granularity=granularity, **changes))


def _jobs(*jobs: dict[str, Any]) -> list[dict[str, Any]]:
    """J_max ``big`` (model A on GPUs 0 and 1) and the given partners (model B by default)."""
    base = {"model": "B", "batch": 25, "remaining_steps": 4, "deadline": 1}
    big = {"id": "big", "model": "A", "batch": 100, "gpus": [0, 1]}
    return [{**base, **big, **jobs[0]}, *({**base, **j} for j in jobs[1:])]


DEGENERATE = {
    # J_max alone: no worker shares a GPU with it.
    "single-job": {"jobs": _jobs({})},
    # Partner on one of J_max's two GPUs, the other GPU solo (the hand-made tiny set).
    "solo-gpu": {},
    # Every deadline passed before calibration starts (now > deadlines), lateness objective.
    "deadlines-passed": {"objective": "deadline", "now": 100.0},
    # Deadlines far ahead: every lateness is 0, every grid point ties.
    "all-on-time": {
        "objective": "deadline",
        "jobs": _jobs({"deadline": 1e9}, {"id": "small", "gpus": [0], "deadline": 1e9}),
    },
    # Two identical partners on J_max's two GPUs (symmetric optima).
    "ties": {"jobs": _jobs({}, {"id": "p", "gpus": [0]}, {"id": "q", "gpus": [1]})},
    # Makespan with a partner of J_max's own size (balanced co-location).
    "balanced": {"objective": "makespan", "jobs": _jobs({}, {"id": "p", "gpus": [0, 1]})},
}


@pytest.mark.parametrize("case", list(DEGENERATE))
@pytest.mark.parametrize("granularity", [25.0, 50.0])
def test_degenerate_sets(case, granularity):
    _check(_tiny(granularity, **DEGENERATE[case]))
