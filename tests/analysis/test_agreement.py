"""The ``agrees`` column of REPRODUCTION.md is computed from the numbers (issue 19.1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from packgap.analysis.agreement import (
    NO,
    NO_CAUSE,
    NONE,
    YES,
    agrees,
    magnitude,
    note,
    tolerance_text,
    uncaused,
    unexplained,
)
from packgap.analysis.kit import Direction, PaperValue, equal, side, versus
from packgap.errors import PackgapError


def _table(sjf: float, bsbf: float, note: str = "") -> list[PaperValue]:
    values = [PaperValue("Table III", "sjf JCT", 1.25, sjf, "h", note), PaperValue("Table III", "bsbf JCT", 1.01, bsbf)]
    return versus(values, "bsbf JCT")


def test_a_direction_between_two_quantities_is_read_from_ours() -> None:
    agree, disagree = _table(1.2, 1.0), _table(0.98, 1.10)
    assert agree[0].direction == Direction(">", "bsbf JCT") and agree[1].direction is None
    assert agrees(agree[0], agree) == YES and agrees(disagree[0], disagree) == NO
    assert agrees(agree[1], agree) == NONE


def test_a_disagreement_without_a_note_is_unexplained() -> None:
    assert [v.quantity for v in unexplained(_table(0.98, 1.10))] == ["sjf JCT"]
    assert unexplained(_table(0.98, 1.10, "measured cause: 240 jobs saturate nothing")) == []
    assert unexplained(_table(1.2, 1.0)) == []


def test_a_tie_in_the_last_bits_is_no_step_up() -> None:
    base = PaperValue("Fig. 12", "gavel + unequal", 1.01, 20622.0 / 20938.421926528445, "x")
    after = Direction(">", "gavel + unequal")
    liss = PaperValue("Fig. 12", "gavel + liss", 1.10, 20622.0 / 20938.421926528437, "x", direction=after)
    assert liss.ours is not None and base.ours is not None and liss.ours > base.ours
    assert agrees(liss, [base, liss]) == NO
    assert agrees(PaperValue("Fig. 6b", "r", 0.1, 1e-12, "", direction=Direction(">", 0.0)), []) == YES


def test_equality_and_sides() -> None:
    exact = PaperValue("Table 4", "R_2", 363.0, 363.0, "ms", direction=equal())
    near = PaperValue("Fig. 15", "ratio", 0.994, 0.98, "", direction=equal(0.01))
    above = PaperValue("Fig. 8", "lucid", 1.28, 0.95, "x", direction=side(1.28, 1.0))
    assert [agrees(v, [v]) for v in (exact, near, above)] == [YES, NO, NO]
    assert above.direction is not None and above.direction.text == "> 1"


def test_a_direction_the_papers_numbers_contradict_is_an_error() -> None:
    values = [
        PaperValue("Table III", "sjf JCT", 1.25, 1.0, "h", direction=Direction("<", "bsbf JCT")),
        PaperValue("Table III", "bsbf JCT", 1.01, 1.2),
    ]
    with pytest.raises(PackgapError, match="paper's own numbers"):
        agrees(values[0], values)
    with pytest.raises(PackgapError, match="'<' and '>' need"):
        Direction("<")


def test_a_declared_cause_shows_only_where_ours_disagrees() -> None:
    cause = "measured: the queue is empty at this load"
    wrong = PaperValue("Fig. 6a", "sjf", 1.2, 0.9, "h", "", Direction("<", 1.0 - 0.5), cause=cause)
    right = PaperValue("Fig. 6a", "sjf", 0.45, 0.4, "h", "", Direction("<", 0.5), cause=cause)
    assert note(wrong, [wrong]) == cause and note(right, [right]) == ""
    assert unexplained([wrong]) == []


def test_magnitude_is_graded_within_a_stated_tolerance() -> None:
    """Issue 33.3: PAL Fig. 11's 5.8 % against the paper's 21 % agrees in direction only."""
    pal = PaperValue("Fig. 11", "pal least gain", 21.0, 5.788, "%", direction=side(21.0, 0.0))
    near = PaperValue("Fig. 11", "pal most gain", 42.0, 33.0, "%", direction=side(42.0, 0.0))
    assert (agrees(pal, [pal]), magnitude(pal), tolerance_text(pal)) == (YES, NO, "±25 %")
    assert magnitude(near) == YES  # 33 is 21 % below 42
    bar = PaperValue("Fig. 8", "lucid", 1.28, 1.5, "x", error_bar=0.3)
    assert (magnitude(bar), tolerance_text(bar)) == (YES, "±0.3 x (paper's bar)")
    assert magnitude(PaperValue("Fig. 8", "lucid", 1.28, 1.6, "x", error_bar=0.3)) == NO
    exact = PaperValue("Table 4", "R_2", 363.0, 364.0, "ms", direction=equal())
    assert (magnitude(exact), tolerance_text(exact)) == (NO, "exact")
    assert magnitude(PaperValue("Fig. 6b", "r", 0.0, 0.01, "", direction=equal(0.02))) == YES
    assert magnitude(PaperValue("x", "no paper value", None, 1.0)) == NONE


def test_off_in_magnitude_needs_a_cause_or_says_it_has_none() -> None:
    pal = PaperValue("Fig. 11", "pal least gain", 21.0, 5.788, "%", "note", side(21.0, 0.0))
    assert uncaused([pal]) == [pal] and note(pal, [pal]) == f"note; {NO_CAUSE}"
    caused = replace(pal, cause="measured: workload 5 has 3 jobs")
    assert uncaused([caused]) == [] and note(caused, [caused]) == "note; measured: workload 5 has 3 jobs"
    # by construction: neither grade, nothing to explain
    own = PaperValue("Table 9", "CUCKOO Norm. JCT", 1.0, 1.0, "", direction=equal(), by_construction=True)
    assert magnitude(own) == NONE and uncaused([own]) == [] and unexplained([own]) == []
