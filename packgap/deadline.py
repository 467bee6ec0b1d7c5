"""Stop long pure-Python work (a Pyomo model build, its hand-over to a solver) at a deadline.

Solvers keep their own time limits, but building a model is Python code that checks no clock:
a placement MILP on 256 GPUs took 16 s to build and 15 s to hand to HiGHS under a 5 s limit
(issue 17). :func:`interrupt_after` arms a one-shot ``SIGALRM`` timer whose handler raises
:class:`~packgap.errors.TimeLimitReached` at the next bytecode boundary, so the method stops
with status timeout instead of overrunning. A C call (a solver run) is not cut: the handler runs
when it returns, which is why the timer is armed only around Python work.

Signals reach only the main thread; elsewhere (a Dask worker thread) the block runs unguarded.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from packgap.errors import TimeLimitReached

#: Loggers that report an exception passing through their code before re-raising it (Pyomo logs
#: "Rule failed ..." for every component whose build the timer cuts): silenced while armed, since
#: the exception itself carries the cause.
QUIET_LOGGERS = ("pyomo",)
#: Seconds between repeated raises once the deadline has passed.
RETRY_S = 0.05


@contextmanager
def interrupt_after(seconds: float | None, what: str) -> Iterator[None]:
    """Run the block; raise :class:`TimeLimitReached` (naming ``what``) once ``seconds`` pass.

    ``None`` means no limit. Inside another timer the sooner expiry wins, and the outer timer
    is re-armed with what is left of it on exit."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    if seconds <= 0:
        raise TimeLimitReached(f"time limit reached before {what}")

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitReached(f"time limit reached while {what}")

    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expire)
    loggers = [logging.getLogger(name) for name in QUIET_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    # Repeating after expiry: an exception raised while a gc callback runs is swallowed by the
    # interpreter ("Exception ignored in gc_callback", seen under hypothesis), so raise again.
    first = min(seconds, outer_left) if outer_left > 0 else seconds
    signal.setitimer(signal.ITIMER_REAL, first, RETRY_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
        if outer_left > 0:
            signal.setitimer(signal.ITIMER_REAL, max(outer_left - (time.monotonic() - started), 1e-3))
