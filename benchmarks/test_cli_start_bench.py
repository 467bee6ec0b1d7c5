"""CLI start-up (issue 8, item 8; issue 20, item 5): ``--help``, ``methods`` and ``instances
check`` import no solver. Measured: 0.28 s for ``--help`` on an idle machine (against 1.3 s
when Pyomo, OR-Tools and the models were imported eagerly); after the one-import-name change,
on the 2-core machine at load average 8, 1.2-2.6 s wall and 0.6-0.7 s of CPU for ``--help``
and ``methods``, the same as the code before the change measured alternately with it."""

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
