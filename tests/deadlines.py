"""Stand-ins for work that runs out of time, to test what a method keeps at its deadline."""

from __future__ import annotations

import time

from packgap.errors import TimeLimitReached


def cannot_build(*args: object, **kwargs: object) -> None:
    """A model build the time limit stops."""
    raise TimeLimitReached("time limit reached while building the model")


def sleeps(*args: object, **kwargs: object) -> None:
    """Work that would take a minute: only the deadline's timer ends it sooner."""
    time.sleep(60)
