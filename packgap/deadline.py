"""Stop long pure-Python work (a Pyomo model build, its hand-over to a solver) at a deadline.

Solvers keep their own time limits, but building a model is Python code that checks no clock:
a placement MILP on 256 GPUs took 16 s to build and 15 s to hand to HiGHS under a 5 s limit
(issue 17). :func:`interrupt_after` arms a one-shot ``SIGALRM`` timer whose handler raises
:class:`~packgap.errors.TimeLimitReached` at the next bytecode boundary (as an exception no
``except Exception`` inside the block can catch), so the method stops
with status timeout instead of overrunning. A C call (a solver run) is not cut: the handler runs
when it returns, which is why the timer is armed only around Python work.

Signals reach only the main thread; elsewhere (a Dask worker thread) the block runs unguarded.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from types import FrameType
from typing import Literal

from packgap.errors import TimeLimitReached

#: Loggers that report an exception passing through their code before re-raising it (Pyomo logs
#: "Rule failed ..." for every component whose build the timer cuts): silenced while armed, since
#: the exception itself carries the cause.
QUIET_LOGGERS = ("pyomo",)
#: Seconds between repeated raises once the deadline has passed.
RETRY_S = 0.05


class _Expired(BaseException):
    """The timer's own exception. Not an :class:`Exception`, so that library code which catches
    every ``Exception`` cannot swallow or rewrap it (``inspect.signature`` turned the interrupt
    into "TypeError: unsupported callable" inside a Pyomo build); the block's exit turns it
    into :class:`~packgap.errors.TimeLimitReached`."""


def interrupt_after(seconds: float | None, what: str) -> AbstractContextManager[None]:
    """Run the block; raise :class:`TimeLimitReached` (naming ``what``) once ``seconds`` pass.

    ``None`` means no limit. Inside another timer the sooner expiry wins, and the outer timer
    is re-armed with what is left of it on exit."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        return nullcontext()
    if seconds <= 0:
        raise TimeLimitReached(f"time limit reached before {what}")
    return _Deadline(seconds, what)


class _Deadline:
    """The armed timer of :func:`interrupt_after`.

    It raises again every :data:`RETRY_S` once expired, since the interpreter swallows an
    exception raised while a gc callback runs ("Exception ignored in gc_callback", seen under
    hypothesis). It does not raise where that would do harm: inside an import (a module left
    half set up for every later import: an ``AttributeError`` on a pandas submodule with a
    1 ms limit), while an exception raised in the block is being handled (it would replace
    it) or while the block is entered or exits; and a timer whose block is gone (left by an exception before
    its exit ran) only disarms itself."""

    def __init__(self, seconds: float, what: str) -> None:
        self.seconds, self.what = seconds, what
        self.owner: FrameType | None = None

    def __enter__(self) -> None:
        self.owner = sys._getframe(1)
        self.handling = sys.exc_info()[1]
        self.outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
        self.started = time.monotonic()
        self.previous = signal.signal(signal.SIGALRM, self._expire)
        self.loggers = [logging.getLogger(name) for name in QUIET_LOGGERS]
        self.levels = [logger.level for logger in self.loggers]
        for logger in self.loggers:
            logger.setLevel(logging.CRITICAL)
        first = min(self.seconds, self.outer_left) if self.outer_left > 0 else self.seconds
        signal.setitimer(signal.ITIMER_REAL, first, RETRY_S)

    def _expire(self, signum: int, frame: FrameType | None) -> None:
        frames = list(_stack(frame))
        if self.owner is None or self.owner not in frames:
            signal.setitimer(signal.ITIMER_REAL, 0)
            return
        handled = sys.exc_info()[1]
        if (handled is not None and handled is not self.handling) or any(_busy(f) for f in frames):
            return
        raise _Expired

    def __exit__(self, kind: object, exc: BaseException | None, traceback: object) -> Literal[False]:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        for logger, level in zip(self.loggers, self.levels, strict=True):
            logger.setLevel(level)
        if self.outer_left > 0:
            signal.setitimer(signal.ITIMER_REAL, max(self.outer_left - (time.monotonic() - self.started), 1e-3))
        self.owner = None
        if isinstance(exc, _Expired):
            raise TimeLimitReached(f"time limit reached while {self.what}") from None
        return False


_OWN_CODE = (_Deadline.__enter__.__code__, _Deadline.__exit__.__code__)


def _stack(frame: FrameType | None) -> Iterator[FrameType]:
    while frame is not None:
        yield frame
        frame = frame.f_back


def _busy(frame: FrameType) -> bool:
    """Whether ``frame`` imports a module, or enters or exits a deadline's block (an exception
    raised in ``__enter__`` would leave the block before its ``__exit__`` could convert it)."""
    return frame.f_code.co_filename.startswith("<frozen importlib") or frame.f_code in _OWN_CODE
