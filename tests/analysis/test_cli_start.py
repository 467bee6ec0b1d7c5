"""Kits are imported when the CLI starts: they must import no solver or plotting library, and
``--help`` and ``methods`` no NumPy, SciPy or pandas either (issue 20.5: the start stays under
0.5 s of CPU; ``benchmarks/test_cli_start_bench.py`` times it)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = {"pyomo", "ortools", "highspy", "sklearn", "scipy", "matplotlib", "pandas", "duckdb"}
#: What ``--help`` and ``methods`` must not import: every family's implementation needs one.
NUMERIC = {"numpy", "scipy", "pandas"}


def _imported(code: str) -> set[str]:
    """The top-level packages a fresh interpreter holds after ``code``."""
    probe = f"import json, sys\n{code}\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    done = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_building_the_cli_imports_no_solver() -> None:
    built = _imported(
        "from packgap.analysis.cli import add_dynamic_commands, app, instances_app\n"
        "add_dynamic_commands(app, instances_app)"
    )
    assert "typer" in built
    assert not built & (HEAVY | NUMERIC)


@pytest.mark.parametrize("args", [["--help"], ["methods"], ["methods", "--json"]], ids=" ".join)
def test_help_and_methods_import_no_numpy(args: list[str]) -> None:
    code = (
        f"sys.argv = ['packgap', *{args!r}]\n"
        "from packgap.analysis.cli import main\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code"
    )
    imported = _imported(code)
    assert "packgap" in imported
    assert not imported & (HEAVY | NUMERIC)
