"""Ctrl-C during an exact solve (issue 22.1): the command exits 130 at once, the store keeps
every cell finished before and nothing cut short, and a rerun computes the interrupted cell."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest

from packgap import jsonio
from packgap.analysis.registry import to_document
from packgap.analysis.store import ResultStore
from packgap.instances.packing.generator import generate as generate_packing
from packgap.instances.planning.generator import generate as generate_planning
from tests.clirun import packgap, start, wait_for_row

#: Long enough that neither exact method proves its optimum before the interrupt, short enough
#: for the rerun to run it out.
TIME_LIMIT = "4"


def stored(store: Path) -> list[tuple[str, str, float | None]]:
    """(method, status, objective) of every stored row, read in this process (no CLI start)."""
    with duckdb.connect(str(store), read_only=True) as db:
        return db.execute("SELECT method, status, objective FROM results ORDER BY method").fetchall()


CASES = [
    ("packing", generate_packing(30, seed=0), "dab+mchp", "exact-cpsat"),
    ("planning", generate_planning(60, seed=0), "mchp", "exact-milp"),  # raw highspy
]


@pytest.mark.parametrize(("family", "instance", "heuristic", "exact"), CASES, ids=[c[3] for c in CASES])
def test_ctrl_c_in_compare_stores_only_finished_cells(
    tmp_path: Path, family: str, instance: Any, heuristic: str, exact: str
) -> None:
    jsonio.write(to_document(family, instance), tmp_path / "i.json")
    store = tmp_path / "s.duckdb"
    args = ("compare", "i.json", "--methods", f"{heuristic},{exact}", "--time-limit", TIME_LIMIT)
    running = start(*args, "--store", str(store), cwd=tmp_path)
    wait_for_row(store, heuristic, running)
    running.send_signal(signal.SIGINT)
    _, stderr = running.communicate(timeout=30)
    assert running.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    assert [method for method, _, _ in stored(store)] == [heuristic]
    rerun = packgap(*args, "--store", str(store), cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    rows = {method: (status, objective) for method, status, objective in stored(store)}
    assert sorted(rows) == sorted([heuristic, exact]) and len(stored(store)) == 2
    status, objective = rows[exact]
    assert status in ("timeout", "optimal") and objective is not None


def test_ctrl_c_while_the_cli_still_imports_exits_130_without_a_traceback(tmp_path: Path) -> None:
    """The console script catches Ctrl-C before it imports the CLI (before: a traceback from
    whichever module was loading). The interrupt is raised where a real one lands most often:
    at the import of the CLI module."""
    code = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'packgap.analysis.cli':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from packgap.analysis.console import main\n"
        "sys.argv = ['packgap', 'methods']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == signal.SIGINT + 128 and "Traceback" not in done.stderr
    assert done.stderr.startswith("interrupted")


def test_ctrl_c_inside_a_store_query_is_a_keyboard_interrupt(tmp_path: Path) -> None:
    """DuckDB cancels a statement on SIGINT and raises RuntimeError('Query interrupted') in place
    of the KeyboardInterrupt (16 of 20 raw point-query loops here; CI once met it in the test
    above: exit 1 and a traceback). Every store method raises KeyboardInterrupt instead."""
    store = ResultStore(tmp_path / "s.duckdb")
    try:
        for _ in range(20):
            with pytest.raises(KeyboardInterrupt):
                threading.Timer(0.02, os.kill, (os.getpid(), signal.SIGINT)).start()
                given_up = time.monotonic() + 60  # a lost interrupt fails the test, never hangs it
                while time.monotonic() < given_up:
                    store.find("digest", "method", 0, "{}")
    finally:
        store.close()
