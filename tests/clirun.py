"""Run the ``packgap`` CLI in a subprocess, as a user would (wide terminal, no tracebacks)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

CODE = "from packgap.analysis.console import main; main()"  # what the `packgap` script runs


def packgap(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-c", CODE, *args], cwd=cwd, capture_output=True, text=True, env=env, check=False
    )


def start(*args: str, cwd: Path) -> subprocess.Popen[str]:
    """Start the CLI without waiting (for signal tests); SIGINT reaches it as from a terminal."""
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.Popen(
        [sys.executable, "-c", CODE, *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def wait_for_row(store: Path, method: str, running: subprocess.Popen[str], within_s: float = 60.0) -> None:
    """Return once ``running`` has appended a row of ``method`` to ``store``: the store is locked
    while open, but DuckDB's write-ahead log holds the row's text (the method name) at once."""
    wal = store.with_name(store.name + ".wal")
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline and running.poll() is None:
        if wal.exists() and method.encode() in wal.read_bytes():
            return
        time.sleep(0.02)
    running.kill()
    raise AssertionError(f"no {method} row reached {store} (exit code {running.poll()})")


def in_process(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    """``packgap ARGS`` in this process (a subprocess costs about a second): exit code, what it
    printed on stdout and on stderr."""
    from packgap.analysis import cliutil
    from packgap.analysis.cli import main

    printed, errors = io.StringIO(), io.StringIO()
    monkeypatch.setattr(cliutil.out, "file", printed)
    monkeypatch.setattr(cliutil.err, "file", errors)
    with contextlib.redirect_stdout(printed), pytest.raises(SystemExit) as done:
        main(list(args))
    return int(done.value.code or 0), printed.getvalue(), errors.getvalue()
