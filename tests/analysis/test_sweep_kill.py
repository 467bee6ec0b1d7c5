"""``kill -9`` (issue 12) or Ctrl-C (issue 22) of a running sweep leaves no worker process behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.clirun import packgap, start, wait_for_row

CODE = "from packgap.analysis.cli import main; main()"


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_sweep(tmp_path: Path) -> None:
    args = ["sweep", "planning", "--sizes", "30-33", "--seeds", "0-3", "--methods", "exact-milp"]
    args += ["--time-limit", "60", "--workers", "2", "--store", str(tmp_path / "s.duckdb")]
    sweep = subprocess.Popen([sys.executable, "-c", CODE, *args], cwd=tmp_path, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    for _ in range(300):  # up to 30 s for the pool to start
        workers = _children(sweep.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.1)
    assert workers, "the sweep started no worker"
    os.kill(sweep.pid, signal.SIGKILL)
    sweep.wait()
    for _ in range(100):  # up to 10 s for the workers to notice
        if not any(_alive(w) for w in workers):
            break
        time.sleep(0.1)
    survivors = [w for w in workers if _alive(w)]
    for w in survivors:
        os.kill(w, signal.SIGKILL)
    assert not survivors


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_ends_a_sweep_and_its_workers_at_once(tmp_path: Path) -> None:
    """With one worker, the next exact cell is already queued to it: the worker that SIGINT
    stops must not go on with that one (the sweep used to wait a whole time limit)."""
    store = tmp_path / "s.duckdb"
    args = ["sweep", "packing", "--sizes", "30", "--seeds", "0-1", "--methods", "dab+mchp,exact-cpsat"]
    running = start(*args, "--time-limit", "120", "--workers", "1", "--store", str(store), cwd=tmp_path)
    wait_for_row(store, "dab+mchp", running)
    workers = _children(running.pid)
    running.send_signal(signal.SIGINT)
    _, stderr = running.communicate(timeout=60)  # far below the 2 x 120 s the queued cells would take
    assert running.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert workers and not any(_alive(w) for w in workers)
    shown = packgap("report", str(store), "--rows", "--json", cwd=tmp_path)
    assert [(r["instance"], r["method"]) for r in json.loads(shown.stdout)] == [("packing-n30-s0", "dab+mchp")]
