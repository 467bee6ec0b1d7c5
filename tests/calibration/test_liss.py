"""LISS: the closed form c + B / sum(v) against a brute-force integer split (DESIGN.md, GIMBAL slip)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.calibration.speed import liss_step, split_step
from packgap.heuristics.calibration.liss import equal_split, integer_split, liss_split

speeds = st.lists(st.floats(0.5, 50.0), min_size=1, max_size=4)


def brute_force(batch: int, v: list[float]) -> float:
    """min over every whole-sample split of max_w b_w / v_w."""
    best = float("inf")
    for head in itertools.product(range(batch + 1), repeat=len(v) - 1):
        last = batch - sum(head)
        if last >= 0:
            best = min(best, max(b / s for b, s in zip((*head, last), v, strict=True)))
    return best


@settings(max_examples=60, deadline=None)
@given(v=speeds, batch=st.integers(1, 24), cost=st.floats(0.0, 2.0))
def test_closed_form_within_one_sample_of_brute_force(v, batch, cost):
    exact = cost + brute_force(batch, v)
    closed = float(liss_step(cost, batch, v))
    assert closed <= exact + 1e-9
    assert exact <= closed + 1 / min(v) + 1e-9
    assert split_step(cost, integer_split(batch, v), v) == pytest.approx(exact, rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(v=speeds, batch=st.integers(1, 500), cost=st.floats(0.0, 2.0))
def test_proportional_split_meets_closed_form_and_beats_equal(v, batch, cost):
    split = liss_split(batch, v)
    assert sum(split) == pytest.approx(batch)
    assert split_step(cost, split, v) == pytest.approx(float(liss_step(cost, batch, v)))
    assert split_step(cost, split, v) <= split_step(cost, equal_split(batch, len(v)), v) + 1e-9


def test_integer_split_example():
    assert integer_split(7, [1.0, 1.0, 2.0]) == [2, 2, 3]
    assert sum(integer_split(1000, [3.3, 0.7])) == 1000
