from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from packgap.packing.interleave import (
    Member,
    StageProfile,
    am_group_iteration,
    am_iteration,
    am_trace,
    muri_p_iteration,
)
from tests.packing.strategies import BERT, RESNET

J0 = Member(RESNET, "before_forward")
J1 = Member(BERT, "before_communication")


def test_table4_reproduced_exactly() -> None:
    """CUCKOO Table 4: BERT (j1) starts first, lambda = 2, one iteration is 543 ms."""
    trace = am_trace((J1, J0), interference=2.0)
    # Table 4 columns f0 b0 c0 f1 b1 c1 R; position 0 is j1 (BERT), position 1 is j0.
    table4 = [
        (0, 0, 0, 0, 0, 0, 10),
        (0, 0, 0, 72, 0, 0, 72),
        (74, 152, 0, 0, 122, 363, 363),
        (0, 0, 98, 0, 0, 0, 98),
        (0, 0, 0, 0, 0, 0, 10),
        (0, 0, 0, 72, 0, 0, 72),
    ]
    rows = [
        (s.forward[1], s.backward[1], s.communication[1], s.forward[0], s.backward[0], s.communication[0], s.duration)
        for s in trace.slots[:6]
    ]
    assert rows == table4
    assert trace.iteration == 543
    assert sum(s.duration for s in trace.slots[2:6]) == 543


def test_better_order_is_kept() -> None:
    assert am_iteration((J0, J1)) == 554
    assert am_group_iteration((J0, J1)) == 543


def test_standalone_am() -> None:
    # S + F, then the B stage waits for communication (and for BERT also backward).
    assert am_iteration((J0,)) == 10 + 37 + 98
    assert am_iteration((J1,)) == 10 + 72 + 363
    before_comm = Member(StageProfile(1, 10, 50, 20), "before_communication")
    before_fwd = Member(StageProfile(1, 10, 50, 20), "before_forward")
    assert am_iteration((before_comm,)) == 1 + 10 + 50
    # The backward spills past the B stage (20 of 50 ms done) and the load (1 ms), and the
    # next forward waits behind the remaining 29 ms: S + (29 + F) + C per iteration.
    assert am_iteration((before_fwd,)) == 1 + (50 - 20 - 1 + 10) + 20


def test_no_interference_below_one() -> None:
    with pytest.raises(ValueError, match="interference"):
        am_trace((J0,), interference=0.5)


def test_muri_p_rotation() -> None:
    # Stages (S, F+B, C): ResNet (10, 113, 98), BERT (10, 133, 363); best order 98+133+363.
    assert muri_p_iteration((RESNET,)) == 221
    assert muri_p_iteration((RESNET, BERT)) == 594


_T = st.floats(0.0, 500.0, allow_nan=False)


@given(st.tuples(_T, _T, _T, _T), st.tuples(_T, _T, _T, _T))
def test_muri_p_between_max_and_sum(a: tuple[float, ...], b: tuple[float, ...]) -> None:
    pa, pb = StageProfile(*a), StageProfile(*b)
    together = muri_p_iteration((pa, pb))
    alone = muri_p_iteration((pa,)), muri_p_iteration((pb,))
    assert max(alone) - 1e-9 <= together <= sum(alone) + 1e-9


@given(
    st.tuples(_T, _T, _T, _T),
    st.tuples(_T, _T, _T, _T),
    st.sampled_from(("before_forward", "before_communication")),
    st.sampled_from((1.0, 2.0)),
)
def test_am_converges_to_positive_time(a: tuple[float, ...], b: tuple[float, ...], sync: str, lam: float) -> None:
    pa, pb = StageProfile(*a), StageProfile(*b)
    members = (Member(pa, "before_forward"), Member(pb, sync))  # type: ignore[arg-type]
    t = am_group_iteration(members, lam)
    assert t >= 0
    if sum(a) > 0:
        assert t > 0
