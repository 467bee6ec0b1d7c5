"""Kits are imported when the CLI starts: they must import no solver or plotting library."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = {"pyomo", "ortools", "highspy", "sklearn", "scipy", "matplotlib", "pandas", "duckdb"}


def test_building_the_cli_imports_no_solver() -> None:
    probe = (
        "import json, sys; from packgap.analysis.cli import add_dynamic_commands, app, instances_app; "
        "add_dynamic_commands(app, instances_app); "
        "print(json.dumps(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    assert not set(json.loads(done.stdout)) & HEAVY
