"""Theorem 1 with release times (packgap.models.sharing.pair_bound): against Theorem 1, a grid of
start times, and the progress model on a two-job instance."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.heuristics.sharing.pair import pair_decision
from packgap.models.sharing.pair_bound import pair_bound, together
from packgap.sharing import JobSchedule, Segment, SharingSolution
from packgap.sharing.progress import replay
from tests.sharing.helpers import tiny

ratios = st.sampled_from([1.0, 1.1, 1.5, 2.0, 3.0])


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 200), st.integers(1, 200), ratios, ratios)
def test_running_pair_at_once_is_theorem_1(p_r: int, p_n: int, x_r: float, x_n: float) -> None:
    d = pair_decision(float(p_r), float(p_n), x_r, x_n)
    both = pair_bound(0.0, 0.0, p_r, p_n, x_r, x_n, share=True, a_running=True)
    assert both / 2 == pytest.approx(min(d.t_con, d.t_seq), rel=1e-9)


def _grid_best(r_a: int, r_b: int, p_a: int, p_b: int, x_a: float, x_b: float, share: bool, running: bool) -> float:
    """Least C_a + C_b over starts on a 1/4 s grid (r + 60 s at most)."""
    starts_a = [float(r_a)] if running else [r_a + k / 4 for k in range(241)]
    best = float("inf")
    for s_a in starts_a:
        for s_b in (r_b + k / 4 for k in range(241)):
            if share or s_b >= s_a + p_a or s_a >= s_b + p_b:
                best = min(best, together(s_a, s_b, p_a, p_b, x_a, x_b))
    return best


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(1, 30),
    st.integers(1, 30),
    ratios,
    ratios,
    st.booleans(),
    st.booleans(),
)
def test_pair_bound_is_the_least_over_start_times(
    r_a: int, r_b: int, p_a: int, p_b: int, x_a: float, x_b: float, share: bool, running: bool
) -> None:
    if running:
        r_b = max(r_a, r_b)
    bound = pair_bound(r_a, r_b, p_a, p_b, x_a, x_b, share=share, a_running=running)
    assert bound == pytest.approx(_grid_best(r_a, r_b, p_a, p_b, x_a, x_b, share, running), rel=1e-9)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 50), st.integers(0, 50), ratios, ratios)
def test_together_is_the_progress_model(i_a: int, i_b: int, s_a: int, s_b: int, x_ab: float, x_ba: float) -> None:
    """Two one-GPU jobs of 1 s iterations on one GPU, started at s_a and s_b."""
    inst = tiny([(0.0, 1, i_a), (0.0, 1, i_b)], gpus=1, models=2, pairs={("m0", "m1"): x_ab, ("m1", "m0"): x_ba})
    sol = SharingSolution(
        tuple(JobSchedule(f"j{k}", 4, 1, (Segment(float(s), (0,)),), 0.0) for k, s in enumerate((s_a, s_b)))
    )
    finish = sum(r.finish for r in replay(inst, sol).run.records.values())
    assert finish == pytest.approx(together(s_a, s_b, i_a, i_b, x_ab, x_ba), rel=1e-9)
