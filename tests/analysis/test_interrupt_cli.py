"""Ctrl-C during an exact solve (issue 22.1): the command exits 130 at once, the store keeps
every cell finished before and nothing cut short, and a rerun computes the interrupted cell."""

from __future__ import annotations

import json
import signal
from pathlib import Path

from packgap import jsonio
from packgap.analysis.registry import to_document
from packgap.instances.packing.generator import generate
from tests.clirun import packgap, start, wait_for_row

#: Long enough that CP-SAT does not prove the 30-job optimum before the interrupt, short enough
#: for the rerun to run it out.
TIME_LIMIT = "4"


def stored(store: Path, cwd: Path) -> list[dict[str, object]]:
    shown = packgap("report", str(store), "--rows", "--json", cwd=cwd)
    assert shown.returncode == 0, shown.stderr
    return list(json.loads(shown.stdout))


def test_ctrl_c_in_compare_stores_only_finished_cells(tmp_path: Path) -> None:
    jsonio.write(to_document("packing", generate(30, seed=0)), tmp_path / "pk.json")
    store = tmp_path / "s.duckdb"
    args = ("compare", "pk.json", "--methods", "dab+mchp,exact-cpsat", "--time-limit", TIME_LIMIT)
    running = start(*args, "--store", str(store), cwd=tmp_path)
    wait_for_row(store, "dab+mchp", running)
    running.send_signal(signal.SIGINT)
    _, stderr = running.communicate(timeout=30)
    assert running.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    assert [r["method"] for r in stored(store, tmp_path)] == ["dab+mchp"]
    rerun = packgap(*args, "--store", str(store), cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    rows = stored(store, tmp_path)
    assert sorted(str(r["method"]) for r in rows) == ["dab+mchp", "exact-cpsat"]
    exact = next(r for r in rows if r["method"] == "exact-cpsat")
    assert exact["status"] in ("timeout", "optimal") and exact["objective"] is not None
