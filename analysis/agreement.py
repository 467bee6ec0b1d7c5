"""Whether a reproduced number agrees with the paper, computed from the numbers (issue 19.1).

A reproduction declares, per compared number, the direction the paper states
(:class:`~packgap.analysis.kit.Direction`): ours below or above a number or another of its quantities (e.g.
"SJF-BSBF's JCT < SJF's"), or equal to the paper's value within a tolerance. The report
evaluates every direction on our numbers; a value that does not agree must carry a note
giving the measured cause (:func:`unexplained`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from packgap.analysis.kit import PaperValue
from packgap.errors import PackgapError

YES, NO, NONE = "yes", "no", "-"


def agrees(value: PaperValue, values: Sequence[PaperValue]) -> str:
    """``yes`` or ``no`` from the numbers, ``-`` where nothing is claimed or a number is missing.

    A ``<`` or ``>`` between two quantities is also checked against the paper's own two
    values where both exist: a direction the paper's numbers contradict is a typing error.
    """
    d = value.direction
    if d is None or value.ours is None or math.isnan(value.ours):
        return NONE
    if d.op == "=":
        if value.paper is None:
            raise PackgapError(f"direction of {value.quantity!r}: '=' needs a paper value")
        scale = abs(value.paper) or 1.0
        return YES if abs(value.ours - value.paper) <= d.tolerance * scale + 1e-9 * scale else NO
    if isinstance(d.than, str):
        other = next((v for v in values if v.quantity == d.than), None)
        if other is None:
            raise PackgapError(f"direction of {value.quantity!r}: no quantity {d.than!r} in the reproduction")
        if value.paper is not None and other.paper is not None and not _holds(d.op, value.paper, other.paper):
            raise PackgapError(f"direction of {value.quantity!r}: the paper's own numbers do not say {d.text}")
        if other.ours is None or math.isnan(other.ours):
            return NONE
        return YES if _holds(d.op, value.ours, other.ours) else NO
    assert d.than is not None
    return YES if _holds(d.op, value.ours, float(d.than)) else NO


def _holds(op: str, left: float, right: float) -> bool:
    """``left op right``; two numbers within 1e-9 of each other (relative) are a tie, which
    neither ``<`` nor ``>`` claims: the same makespan summed in another order differs in its
    last bits (GIMBAL Fig. 12's Gavel + LISS read 'above' + unequal by 8e-12 s of 20,938 s)."""
    if math.isclose(left, right, rel_tol=1e-9, abs_tol=0.0):
        return False
    return left < right if op == "<" else left > right


def unexplained(values: Sequence[PaperValue]) -> list[PaperValue]:
    """The values that do not agree with the paper and carry no note."""
    return [v for v in values if not v.measured and agrees(v, values) == NO and not note(v, values).strip()]


def note(value: PaperValue, values: Sequence[PaperValue]) -> str:
    """The value's note, with its declared cause where it does not agree."""
    if value.cause and agrees(value, values) == NO:
        return "; ".join(t for t in (value.note, value.cause) if t)
    return value.note
