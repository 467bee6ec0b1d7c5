"""Run the CLI in this process (much faster than a subprocess) under a memory limit: exit code
and stderr."""

from __future__ import annotations

import contextlib
import io
import resource
from collections.abc import Iterator
from pathlib import Path

from packgap.analysis import cliutil
from packgap.analysis.cli import main

#: Memory a command may add to what the test process holds (bytes).
HEADROOM = 3 * 1024**3


@contextlib.contextmanager
def memory_headroom() -> Iterator[None]:
    """An address-space limit of the current size plus :data:`HEADROOM`, lifted afterwards: a
    command that once ran out of memory fails with MemoryError instead of swapping the machine."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    status = Path("/proc/self/status").read_text().splitlines()
    size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize"))
    limit = size + HEADROOM if hard == resource.RLIM_INFINITY else min(hard, size + HEADROOM)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run(*args: str) -> tuple[int, str]:
    """Exit code of ``packgap ARGS`` and what it wrote to stderr, under :func:`memory_headroom`;
    an uncaught exception (a traceback for a user) propagates and fails the calling test."""
    err, out = io.StringIO(), io.StringIO()
    # The CLI's rich consoles hold the streams of import time, which pytest's capture replaced.
    consoles = cliutil.err.file, cliutil.out.file
    cliutil.err.file, cliutil.out.file = err, out
    try:
        with memory_headroom(), contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    else:
        code = 0
    finally:
        cliutil.err.file, cliutil.out.file = consoles
    return code, err.getvalue()
