"""The README's quoted numbers, read from its text and recomputed (issue 12).

A :class:`Quote` names one number of the README by the text right before it and its position
after that text, and recomputes it; :func:`check` compares the two at the README's printed
precision (a time-limited result instead may be at most the quoted value plus a stated slack).
Each README section's module lists its quotes in one table, run by one parametrised test;
quotes that read ``../shared/traces`` carry the ``traces`` mark and skip without the folder,
and those that take minutes carry the ``slow`` mark (``make test-slow``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from packgap.analysis.kit import PaperValue
from packgap.errors import PackgapError

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
#: The README with every run of white space (line breaks included) as one space.
TEXT = " ".join(README.split())
NUMBER = re.compile(r"\d[\d,]*\.?\d*")


def numbers(after: str, count: int) -> list[str]:
    """The first ``count`` numbers (thousands separators allowed) after ``after``, as printed;
    ``after`` must occur once in the README, line breaks read as spaces."""
    after = " ".join(after.split())
    assert TEXT.count(after) == 1, f"README has {after!r} {TEXT.count(after)} times, not once"
    tail = TEXT[TEXT.index(after) + len(after) :]
    return [n.rstrip(".,") for n in NUMBER.findall(tail)[:count]]


def quoted(after: str, count: int) -> list[float]:
    """:func:`numbers` as floats."""
    return [float(n.replace(",", "")) for n in numbers(after, count)]


def printed(value: float, like: str) -> str:
    """``value`` with as many decimals as ``like`` shows, without thousands separators."""
    decimals = len(like.partition(".")[2])
    return f"{value:.{decimals}f}"


@dataclass(frozen=True)
class Quote:
    """The ``index``-th number after ``after`` in the README, recomputed by ``value``.

    ``slack`` None: equal at the printed precision. A number: a time-limited result (a gap after
    a wall-clock limit) that must be at most the quoted value plus ``slack``. ``within``: a
    time-limited result that may move either way, by at most ``within``. ``marks``: ``traces``
    (reads ``../shared/traces``) and ``slow`` (minutes).
    """

    after: str
    index: int
    value: Callable[[], float]
    slack: float | None = None
    marks: tuple[str, ...] = ()
    within: float | None = None

    @property
    def id(self) -> str:
        return f"{self.after.strip(' |')[:48]} #{self.index}"


def quotes(after: str, values: Sequence[Callable[[], float]], **common: Any) -> list[Quote]:
    """One :class:`Quote` per value, the i-th number after ``after`` recomputed by ``values[i]``."""
    return [Quote(after, i, value, **common) for i, value in enumerate(values)]


def params(table: Sequence[Quote]) -> list[Any]:
    """The quotes as pytest parameters with their marks and ids."""
    return [pytest.param(q, marks=[getattr(pytest.mark, m) for m in q.marks], id=q.id) for q in table]


def check(quote: Quote) -> None:
    """The recomputed value reads as the README prints it (or stays within its slack)."""
    text = numbers(quote.after, quote.index + 1)[quote.index]
    value = quote.value()
    number = float(text.replace(",", ""))
    if quote.within is not None:
        assert abs(value - number) <= quote.within, f"README: {text}, measured {value}"
    elif quote.slack is not None:
        assert value <= number + quote.slack, f"README: {text}, measured {value}"
    else:
        assert printed(value, text) == text.replace(",", ""), f"README: {text}, measured {value}"


@functools.cache
def trace_path(relative: str) -> Path:
    """A file or folder of the trace folder; the test skips when either is absent."""
    from packgap.instances.traces import traces_dir

    try:
        path = traces_dir(None) / relative
    except PackgapError as exc:
        pytest.skip(str(exc))
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


@functools.cache
def reproduction_rows(name: str, quick: bool = False) -> list[dict[str, Any]]:
    """The rows the reproduction ``name`` computes (``packgap figures NAME``)."""
    from packgap.analysis.figures import chosen
    from packgap.analysis.kit import no_tick

    (reproduction,) = chosen([name])
    return reproduction.compute(quick, no_tick)


@functools.cache
def reproduced(name: str, quick: bool = False) -> dict[str, PaperValue]:
    """Each quantity of the reproduction ``name``: the paper's value and ours."""
    from packgap.analysis.figures import chosen

    (reproduction,) = chosen([name])
    return {v.quantity: v for v in reproduction.compare(reproduction_rows(name, quick))}


def ours(name: str, quantity: str, quick: bool = False) -> float:
    value = reproduced(name, quick)[quantity].ours
    assert value is not None, f"{name}: no value of ours for {quantity}"
    return value


def paper(name: str, quantity: str, quick: bool = False) -> float:
    value = reproduced(name, quick)[quantity].paper
    assert value is not None, f"{name}: no paper value for {quantity}"
    return value
