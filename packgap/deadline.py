"""Time limits kept by checks at safe points (issue 31).

A solver keeps its own time limit, but the Python around it checks no clock: a placement
MILP on 256 GPUs took 16 s to build and 15 s to hand to HiGHS under a 5 s limit (issue 17).
The run context puts a :class:`Deadline` in a context variable (:func:`within`,
:meth:`packgap.analysis.method.RunContext.limited`); the code that may run long reads it at
points where stopping is safe: between constraint families and every :data:`EVERY` rows of a
model build (:func:`checked`), per job, event or stage of a heuristic, per chunk of a
hand-over to a solver (:func:`check`). A check past the deadline raises
:class:`~packgap.errors.TimeLimitReached` in packgap's own frame, so the method stops with
status timeout and keeps what it had finished. A C call (a min-cost flow, a matching, a
solver run) is not cut: a solver gets its native limit, what is left of the budget; a flow
starts only when its expected time is left (:func:`fits`). The sharing branch and bound
keeps its own clock, per node and per allocation, with a grace to bound the open nodes.

Nothing is thrown from a signal handler: an exception raised by a ``SIGALRM`` handler lands
in whatever code runs at that moment (a Pyomo build, an import, a gc callback, hypothesis's
tracer), and each fix of that kind patched one place it could land (issue 31).

A context variable belongs to its thread (and its task), so a run on a Dask worker thread
keeps its deadline as a run on the main thread does.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

from packgap.errors import TimeLimitReached

T = TypeVar("T")

#: Items between two checks of :func:`checked` (a Pyomo row costs 0.1-1 ms to build).
EVERY = 64


@dataclass(frozen=True)
class Deadline:
    """The moment (``time.perf_counter``) by which the work named ``what`` must stop.

    With a ``reserve`` the work stops ``reserve`` x its own running time (since ``began``)
    sooner: what a stopped model build leaves is freed after the stop, on the caller's clock
    (a CP-SAT build of 500 jobs stopped after 13 s took 1.3 s to free, :data:`BUILD_RESERVE`)."""

    at: float
    what: str
    began: float = 0.0
    reserve: float = 0.0

    def stop_at(self, now: float) -> float:
        return self.at - self.reserve * max(now - self.began, 0.0)

    def left(self) -> float:
        now = time.perf_counter()
        return self.stop_at(now) - now


#: The share of a model build's running time kept to free what a stopped build leaves
#: (measured 0.03-0.10 for CP-SAT packing models of 500 jobs stopped after 8-14 s).
BUILD_RESERVE = 0.12


_current: ContextVar[Deadline | None] = ContextVar("packgap_deadline", default=None)


def current() -> Deadline | None:
    """The deadline in force here (None: no limit)."""
    return _current.get()


def check() -> None:
    """Raise :class:`TimeLimitReached` (naming what runs) once the deadline in force has passed."""
    deadline = _current.get()
    if deadline is not None and (now := time.perf_counter()) >= deadline.stop_at(now):
        raise TimeLimitReached(f"time limit reached while {deadline.what}")


def checked(items: Iterable[T], every: int = EVERY) -> Iterator[T]:
    """``items`` one by one, with a :func:`check` before the first and every ``every`` after."""
    for i, item in enumerate(items):
        if i % every == 0:
            check()
        yield item


def fits(seconds: float, what: str) -> None:
    """Raise :class:`TimeLimitReached` unless ``seconds`` are left: before work that checks
    no deadline (a C call that runs to its end), ``seconds`` its expected duration."""
    deadline = _current.get()
    if deadline is not None and deadline.left() < seconds:
        raise TimeLimitReached(
            f"time limit reached: {what} would take about {seconds:.3g} s, {max(deadline.left(), 0.0):.3g} s left"
        )


@contextmanager
def within(seconds: float | None, what: str, reserve: float = 0.0) -> Iterator[None]:
    """Run the block under a deadline ``seconds`` from now, doing ``what``, stopping
    ``reserve`` x the block's running time before it (:class:`Deadline`).

    An outer deadline that comes sooner stays in force (named ``what`` inside the block);
    ``None`` adds no limit of its own. A limit already spent raises :class:`TimeLimitReached`
    before the block starts."""
    outer = _current.get()
    at = outer.at if outer is not None else None
    now = time.perf_counter()
    if seconds is not None:
        if seconds <= 0:
            raise TimeLimitReached(f"time limit reached before {what}")
        at = now + seconds if at is None else min(at, now + seconds)
    token = _current.set(None if at is None else Deadline(at, what, now, reserve))
    try:
        yield
    finally:
        _current.reset(token)
