"""Theorem 1 by direct comparison: the issue's examples, brute force over kappa, the simulator."""

from __future__ import annotations

import doctest
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.errors import PackgapError
from packgap.heuristics.sharing import pair
from packgap.heuristics.sharing.pair import pair_average, pair_decision, printed_sign_test
from packgap.sharing import FAMILY, JobSchedule, Segment, SharingSolution
from tests.sharing.helpers import tiny

times = st.floats(0.0, 1000.0, allow_nan=False)
ratios = st.floats(1.0, 4.0, allow_nan=False)


def test_docstring_example() -> None:
    assert doctest.testmod(pair).failed == 0


def test_issue_examples() -> None:
    d = pair_decision(100.0, 50.0, 1.2, 1.2)
    assert (d.t_con, d.t_seq, d.share, d.kappa) == (pytest.approx(85.0), 125.0, True, 0.0)
    tie = pair_decision(100.0, 50.0, 2.0, 2.0)
    assert tie.t_con == pytest.approx(tie.t_seq) == 125.0
    assert not tie.share and tie.kappa == 100.0


@settings(max_examples=300, deadline=None)
@given(times, times, ratios, ratios)
def test_best_kappa_is_an_endpoint_and_matches_brute_force(p_r: float, p_n: float, x_r: float, x_n: float) -> None:
    d = pair_decision(p_r, p_n, x_r, x_n)
    grid = [pair_average(p_r, p_n, x_r, x_n, p_r * k / 200) for k in range(201)]
    assert min(grid) == pytest.approx(min(d.t_con, d.t_seq), rel=1e-9, abs=1e-9)
    assert pair_average(p_r, p_n, x_r, x_n, d.kappa) == pytest.approx(d.t_share, rel=1e-9, abs=1e-9)
    assert grid[0] == pytest.approx(d.t_con, rel=1e-9, abs=1e-9)
    assert grid[-1] == pytest.approx(d.t_seq, rel=1e-9, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 400), st.integers(1, 400), st.sampled_from([1.0, 1.2, 1.5, 2.0, 3.0]))
def test_closed_form_matches_the_event_simulator(i_r: int, i_n: int, xi: float) -> None:
    """Two one-GPU jobs of 1 s iterations: share at 0 or run back to back, scored by the evaluator."""
    inst = tiny([(0.0, 1, i_r), (0.0, 1, i_n)], xi=xi, gpus=1)
    d = pair_decision(float(i_r), float(i_n), xi, xi)
    share_r = i_r + (xi - 1) * min(i_r, i_n) if i_n * xi <= i_r * xi else xi * i_r
    share_n = xi * i_n if i_n <= i_r else i_n + (xi - 1) * i_r
    shared = SharingSolution(
        (
            JobSchedule("j0", 4, 1, (Segment(0.0, (0,)),), share_r),
            JobSchedule("j1", 4, 1, (Segment(0.0, (0,)),), share_n, "j0"),
        )
    )
    FAMILY.validate(inst, shared)
    assert FAMILY.evaluate(inst, shared).objective == pytest.approx(d.t_con)
    apart = SharingSolution(
        (
            JobSchedule("j0", 4, 1, (Segment(0.0, (0,)),), float(i_r)),
            JobSchedule("j1", 4, 1, (Segment(float(i_r), (0,)),), float(i_r + i_n)),
        )
    )
    assert FAMILY.evaluate(inst, apart).objective == pytest.approx(d.t_seq)


def test_printed_sign_test_disagrees_on_many_random_pairs() -> None:
    rng = random.Random(7)
    wrong = 0
    for _ in range(2000):
        p_r, p_n = rng.uniform(1, 1000), rng.uniform(1, 1000)
        x_r, x_n = rng.uniform(1, 3), rng.uniform(1, 3)
        wrong += printed_sign_test(x_n, x_r) != pair_decision(p_r, p_n, x_r, x_n).share
    assert wrong > 200


def test_the_sign_test_reading_shares_as_eq_25_prints_and_prices_the_schedule_it_picks() -> None:
    rng = np.random.default_rng(3)
    p_r, p_n = rng.uniform(1, 1000, 500), rng.uniform(1, 1000, 500)
    x_r, x_n = rng.uniform(1, 3, 500), rng.uniform(1, 3, 500)
    share, t_share = pair.decide_many(p_r, p_n, x_r, x_n, sign_test=True)
    direct, _ = pair.decide_many(p_r, p_n, x_r, x_n)
    assert (share == (2 * x_r + x_n - 2 * x_n * x_r > 0)).all()
    assert (share != direct).sum() > 50
    for k in range(500):
        d = pair_decision(p_r[k], p_n[k], x_r[k], x_n[k])
        assert t_share[k] == pytest.approx(d.t_con if share[k] else d.t_seq)


@pytest.mark.parametrize(("args", "word"), [((-1, 5, 1.2, 1.2), "running-remaining"), ((1, 5, 0.9, 1.2), "xi-running")])
def test_bad_values_are_errors(args: tuple[float, float, float, float], word: str) -> None:
    with pytest.raises(PackgapError, match=word):
        pair_decision(*args)
