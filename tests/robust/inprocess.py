"""Run the CLI in this process (much faster than a subprocess): exit code and stderr."""

from __future__ import annotations

import contextlib
import io

from packgap.analysis import cliutil
from packgap.analysis.cli import main


def run(*args: str) -> tuple[int, str]:
    """Exit code of ``packgap ARGS`` and what it wrote to stderr; an uncaught exception (a
    traceback for a user) propagates and fails the calling test."""
    err, out = io.StringIO(), io.StringIO()
    # The CLI's rich consoles hold the streams of import time, which pytest's capture replaced.
    consoles = cliutil.err.file, cliutil.out.file
    cliutil.err.file, cliutil.out.file = err, out
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    else:
        code = 0
    finally:
        cliutil.err.file, cliutil.out.file = consoles
    return code, err.getvalue()
