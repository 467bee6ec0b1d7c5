"""The documentation's quoted numbers, read from the page that quotes them and recomputed
(issues 12 and 27).

A :class:`Quote` names one number of a page (``docs/families/sharing.md``, ...) by the text right
before it and its position after that text, and recomputes it; :func:`check` compares the two at
the page's printed precision (a time-limited result instead may be at most the quoted value plus
a stated slack). Each page's module lists its quotes in one table (:func:`on` names their page),
run by one parametrised test; quotes that read the trace folder, or quote a number computed from
it, carry the ``traces`` mark and skip, naming what is missing, without the folder or the file
they read (issue 31); those that take minutes carry the ``slow`` mark (``make test-slow``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from packgap.analysis.kit import PaperValue
from packgap.errors import PackgapError

ROOT = Path(__file__).resolve().parents[2]
NUMBER = re.compile(r"\d[\d,]*\.?\d*")


@functools.cache
def text(page: str) -> str:
    """The page (a path from the repository's root) with every run of white space, line breaks
    included, as one space."""
    return " ".join((ROOT / page).read_text(encoding="utf-8").split())


def numbers(after: str, count: int, page: str) -> list[str]:
    """The first ``count`` numbers (thousands separators allowed) after ``after``, as printed;
    ``after`` must occur once in ``page``, line breaks read as spaces."""
    after, whole = " ".join(after.split()), text(page)
    assert whole.count(after) == 1, f"{page} has {after!r} {whole.count(after)} times, not once"
    tail = whole[whole.index(after) + len(after) :]
    return [n.rstrip(".,") for n in NUMBER.findall(tail)[:count]]


def quoted(after: str, count: int, page: str) -> list[float]:
    """:func:`numbers` as floats."""
    return [float(n.replace(",", "")) for n in numbers(after, count, page)]


def printed(value: float, like: str) -> str:
    """``value`` with as many decimals as ``like`` shows, without thousands separators."""
    decimals = len(like.partition(".")[2])
    return f"{value:.{decimals}f}"


@dataclass(frozen=True)
class Quote:
    """The ``index``-th number after ``after`` on ``page``, recomputed by ``value``.

    ``slack`` None: equal at the printed precision. A number: a time-limited result (a gap after
    a wall-clock limit) that must be at most the quoted value plus ``slack``. ``within``: a
    time-limited result that may move either way, by at most ``within``. ``marks``: ``traces``
    (reads the trace folder: ``value`` calls :func:`trace_path` on what it reads before it
    computes) and ``slow`` (minutes). ``page``: set by :func:`on`.
    """

    after: str
    index: int
    value: Callable[[], float]
    slack: float | None = None
    marks: tuple[str, ...] = ()
    within: float | None = None
    page: str = ""

    @property
    def id(self) -> str:
        return f"{self.after.strip(' |')[:48]} #{self.index}"


def quotes(after: str, values: Sequence[Callable[[], float]], **common: Any) -> list[Quote]:
    """One :class:`Quote` per value, the i-th number after ``after`` recomputed by ``values[i]``."""
    return [Quote(after, i, value, **common) for i, value in enumerate(values)]


def on(page: str, table: Sequence[Quote]) -> list[Quote]:
    """The quotes of ``table``, each read from ``page`` (a path from the repository's root)
    unless it names its own."""
    return [dataclasses.replace(q, page=q.page or page) for q in table]


def params(table: Sequence[Quote]) -> list[Any]:
    """The quotes as pytest parameters with their marks and ids."""
    return [pytest.param(q, marks=[getattr(pytest.mark, m) for m in q.marks], id=q.id) for q in table]


def check(quote: Quote) -> None:
    """The recomputed value reads as its page prints it (or stays within its slack); a quote
    marked ``traces`` skips without a trace folder."""
    assert quote.page, f"{quote.id}: no page (tables are wrapped in on(PAGE, ...))"
    shown = numbers(quote.after, quote.index + 1, quote.page)[quote.index]
    if "traces" in quote.marks:
        trace_path(".")
    value = quote.value()
    number = float(shown.replace(",", ""))
    where = f"{quote.page}: {shown}, measured {value}"
    if quote.within is not None:
        assert abs(value - number) <= quote.within, where
    elif quote.slack is not None:
        assert value <= number + quote.slack, where
    else:
        assert printed(value, shown) == shown.replace(",", ""), where


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
