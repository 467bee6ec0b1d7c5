"""Whether a reproduced number agrees with the paper, computed from the numbers (issue 19.1).

A reproduction declares, per compared number, the direction the paper states
(:class:`~packgap.analysis.kit.Direction`): ours below or above a number or another of its quantities (e.g.
"SJF-BSBF's JCT < SJF's"), or equal to the paper's value within a tolerance. The report
evaluates every direction on our numbers (:func:`agrees`); a value that does not agree must
carry a note giving the measured cause (:func:`unexplained`).

Agreeing in direction says which way, not how close (issue 33.3: PAL's 5.8 % against the
paper's 21 % agreed): :func:`magnitude` grades ours against the paper's value within a stated
tolerance (:func:`tolerance_text`), and a value that agrees in direction but not in magnitude
carries its measured cause or says it has none yet (:data:`NO_CAUSE`, :func:`uncaused`).
Values equal to the paper's by construction are graded neither way (:func:`counted`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from packgap.analysis.kit import PaperValue
from packgap.errors import PackgapError

YES, NO, NONE = "yes", "no", "-"
#: Relative tolerance of the magnitude grade where the paper prints no error bar and the
#: direction no tolerance of its own.
MAGNITUDE_TOLERANCE = 0.25
#: The note of a value off in magnitude whose cause is not measured yet.
NO_CAUSE = "off in magnitude: no measured cause yet"


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


def counted(value: PaperValue) -> bool:
    """Whether the value is graded in the counts: neither a measured number (a timing) nor
    one equal to the paper's by construction."""
    return not value.measured and not value.by_construction


def tolerance(value: PaperValue) -> tuple[float, bool]:
    """The magnitude tolerance and whether it is absolute: the paper's error bar, else the
    tolerance of an ``=`` direction (absolute at a paper value of 0), else 25 % relative."""
    if value.error_bar is not None:
        return value.error_bar, True
    if value.direction is not None and value.direction.op == "=":
        return value.direction.tolerance, value.paper == 0
    return MAGNITUDE_TOLERANCE, value.paper == 0


def tolerance_text(value: PaperValue) -> str:
    """The tolerance of :func:`magnitude` as a column shows it: ``±25 %``, ``±0.3 h (paper's bar)``."""
    width, absolute = tolerance(value)
    if value.error_bar is not None:
        return f"±{width:g}{f' {value.unit}' if value.unit else ''} (paper's bar)"
    if absolute:
        return f"±{width:g}"
    return f"±{100 * width:g} %" if width else "exact"


def magnitude(value: PaperValue) -> str:
    """``yes`` where ours lies within :func:`tolerance` of the paper's value, ``no`` outside,
    ``-`` without both numbers or for a value equal by construction."""
    if value.by_construction or value.paper is None or value.ours is None or math.isnan(value.ours):
        return NONE
    width, absolute = tolerance(value)
    scale = 1.0 if absolute else abs(value.paper)
    return YES if abs(value.ours - value.paper) <= width * scale + 1e-9 * (scale or 1.0) else NO


def unexplained(values: Sequence[PaperValue]) -> list[PaperValue]:
    """The values that do not agree with the paper and carry no note."""
    return [v for v in values if counted(v) and agrees(v, values) == NO and not note(v, values).strip()]


def uncaused(values: Sequence[PaperValue]) -> list[PaperValue]:
    """The values that agree in direction (or claim none) but not in magnitude, with no
    measured cause declared: their note says :data:`NO_CAUSE`."""
    return [v for v in values if counted(v) and agrees(v, values) != NO and magnitude(v) == NO and not v.cause.strip()]


def note(value: PaperValue, values: Sequence[PaperValue]) -> str:
    """The value's note, with its declared cause where it does not agree in direction or in
    magnitude (or :data:`NO_CAUSE` where it is off in magnitude and declares none)."""
    off = counted(value) and (agrees(value, values) == NO or magnitude(value) == NO)
    if not off:
        return value.note
    cause = value.cause or (NO_CAUSE if agrees(value, values) != NO else "")
    return "; ".join(t for t in (value.note, cause) if t)
