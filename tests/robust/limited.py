"""Run the CLI in a subprocess under a memory limit, for inputs that once ran out of memory:
a regression then fails with MemoryError in the child instead of swapping the machine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

#: Address-space limit of the child (bytes): the interpreter with NumPy, OR-Tools and DuckDB
#: loaded stays far below it, a per-GPU list of 10^9 entries far above.
MEMORY_LIMIT = 3 * 1024**3


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def packgap_limited(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``packgap ARGS`` in ``cwd`` with at most :data:`MEMORY_LIMIT` of memory; ``timeout``
    only guards against a hang (it raises, failing the test), it measures nothing."""
    env = {**os.environ, "COLUMNS": "200"}
    code = "from packgap.analysis.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=timeout,
        preexec_fn=_limit_memory,
    )
