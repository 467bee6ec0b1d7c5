"""Run the ``packgap`` CLI in a subprocess, as a user would (wide terminal, no tracebacks)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def packgap(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    code = "from packgap.analysis.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, env=env, check=False
    )
