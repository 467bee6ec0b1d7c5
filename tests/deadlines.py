"""Stand-ins for work that runs out of time, to test what a method keeps at its deadline."""

from __future__ import annotations

import time

from packgap.deadline import check
from packgap.errors import TimeLimitReached


def cannot_build(*args: object, **kwargs: object) -> None:
    """A model build the time limit stops."""
    raise TimeLimitReached("time limit reached while building the model")


def works_a_minute(*args: object, **kwargs: object) -> None:
    """Work that would take a minute, checking the deadline in force as it goes: only the
    deadline ends it sooner."""
    end = time.perf_counter() + 60
    while time.perf_counter() < end:
        check()
        time.sleep(0.001)
