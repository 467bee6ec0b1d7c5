"""A sweep on a Dask cluster keeps every row exactly once when a worker dies midway (issue 21.5).

The sweep's parent process is the store's only writer and appends a row when a future
completes; Dask reschedules the tasks of a killed worker, so each cell completes once.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from packgap.analysis.store import ResultStore
from packgap.analysis.sweep import Cell, run_sweep
from packgap.instances.planning.generator import generate
from packgap.planning import FAMILY
from packgap.result import SolveResult
from packgap.solvers.outcome import SolveOptions

distributed = pytest.importorskip("distributed")

CELLS = 200
KILL_AFTER = 50


def _cells() -> list[Cell]:
    methods = ("mchp", "fifo", "edf", "mchp")
    docs = [FAMILY.instance_to_dict(generate(3, seed=s, gpu_types=(("A", 1, 1.0), ("B", 1, 1.5)))) for s in range(50)]
    return [Cell("planning", doc, m, seed=k) for doc in docs for k, m in enumerate(methods)]


@pytest.mark.slow  # ~45 s on the loaded 2-core machine: four worker processes start and import packgap
def test_killed_worker_loses_no_row_and_stores_none_twice(tmp_path: Path) -> None:
    cells = _cells()
    assert len(cells) == CELLS
    store = ResultStore(tmp_path / "s.duckdb")
    done: list[SolveResult] = []
    with distributed.LocalCluster(n_workers=4, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        victim = min(nanny.process.process.pid for nanny in cluster.workers.values())

        def on_done(result: SolveResult, reused: bool) -> None:
            done.append(result)
            if len(done) == KILL_AFTER:
                os.kill(victim, signal.SIGKILL)

        results = run_sweep(
            cells, SolveOptions(time_limit=10), store, scheduler=cluster.scheduler_address, on_done=on_done
        )
        assert all(nanny.process.process.pid != victim for nanny in cluster.workers.values())
    rows = store.rows()
    store.close()
    keys = [(r["instance_digest"], r["method"], r["seed"]) for r in rows]
    assert len(done) == len(results) == len(rows) == CELLS
    assert len(set(keys)) == CELLS
    assert all(r.objective is not None for r in results)
