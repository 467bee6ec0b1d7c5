"""Whether a reproduced number agrees with the paper, computed from the numbers (issue 19.1).

A reproduction declares, per compared number, the direction the paper states
(:class:`Direction`): ours below or above a number or another of its quantities (e.g.
"SJF-BSBF's JCT < SJF's"), or equal to the paper's value within a tolerance. The report
evaluates every direction on our numbers; a value that does not agree must carry a note
giving the measured cause (:func:`unexplained`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from packgap.errors import PackgapError

if TYPE_CHECKING:
    from packgap.analysis.kit import PaperValue

YES, NO, NONE = "yes", "no", "-"


@dataclass(frozen=True)
class Direction:
    """The paper's claim about one number: ``ours op than``.

    ``op`` is ``<`` or ``>``, with ``than`` a number or the quantity of another value of the
    same reproduction (compared with that value's ours); or ``=``: ours equals the paper's
    value within ``tolerance`` (relative; absolute when the paper's value is 0).
    """

    op: str
    than: float | str | None = None
    tolerance: float = 0.0

    def __post_init__(self) -> None:
        if self.op not in ("<", ">", "="):
            raise PackgapError(f"direction: op must be <, > or =, got {self.op!r}")
        if (self.op == "=") != (self.than is None):
            raise PackgapError("direction: '=' compares with the paper's value, '<' and '>' need a 'than'")

    @property
    def text(self) -> str:
        if self.op == "=":
            return "= paper" + (f" ±{self.tolerance:.0%}" if self.tolerance else "")
        than = f"{self.than:g}" if isinstance(self.than, float | int) else self.than
        return f"{self.op} {than}"


def equal(tolerance: float = 0.0) -> Direction:
    return Direction("=", tolerance=tolerance)


def side(paper: float, pivot: float) -> Direction:
    """Ours on the same side of ``pivot`` as the paper's value (e.g. a ratio above 1)."""
    return Direction("<" if paper < pivot else ">", float(pivot))


def versus(values: Sequence[PaperValue], reference: str) -> list[PaperValue]:
    """Each value with a paper number ordered against ``reference`` (a quantity among them) as
    the paper orders the two: e.g. every policy's JCT against SJF-BSBF's."""
    ref = next(v for v in values if v.quantity == reference)
    if ref.paper is None:
        raise PackgapError(f"direction: {reference!r} has no paper value to order against")
    return [
        replace(v, direction=Direction("<" if v.paper < ref.paper else ">", reference))
        if v is not ref and v.paper is not None and v.paper != ref.paper
        else v
        for v in values
    ]


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
    return left < right if op == "<" else left > right


def unexplained(values: Sequence[PaperValue]) -> list[PaperValue]:
    """The values that do not agree with the paper and carry no note."""
    return [v for v in values if not v.measured and agrees(v, values) == NO and not v.note.strip()]
