"""CLI start-up (issue 8, item 8; issue 20, item 5): ``--help``, ``methods`` and ``instances
check`` import no solver, and ``--help`` and ``methods`` no NumPy (the kits declare their
methods, reproductions and simulations as data; ``tests/analysis/test_cli_start.py``).
Measured on the 2-core machine at load average 10-12, the code before and after issue 20.5 run
alternately: wall time (median of 3) 2.1-2.2 s before, 0.77-1.09 s after; CPU time per start
(median of 10) without a bytecode cache 0.62 -> 0.30 s for ``--help`` and 0.74 -> 0.41 s for
``methods``, with one 0.52 -> 0.25 s and 0.54 -> 0.32 s. Target: under 0.5 s of CPU."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from packgap import jsonio
from packgap.analysis.registry import to_document
from packgap.instances.planning.generator import generate

CODE = "from packgap.analysis.cli import main; main()"


def _run(*args: str) -> None:
    subprocess.run([sys.executable, "-c", CODE, *args], check=True, capture_output=True)


@pytest.mark.parametrize("args", [("--help",), ("methods",), ("instances", "check", "{file}")], ids=" ".join)
def test_cli_start(benchmark, tmp_path: Path, args: tuple[str, ...]) -> None:
    file = tmp_path / "p.json"
    jsonio.write(to_document("planning", generate(4, seed=0)), file)
    benchmark.pedantic(_run, args=tuple(a.replace("{file}", str(file)) for a in args), rounds=3, iterations=1)
