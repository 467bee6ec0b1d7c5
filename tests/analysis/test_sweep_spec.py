"""``packgap sweep --spec FILE`` (TOML), per-run seeds by hashing, and the same rows through a
real Dask LocalCluster on loopback as through the local process pool (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap.analysis.spec import load_spec, run_seed
from tests.clirun import packgap

SPEC = """
time_limit = 20
repetitions = 2
seed = 5

[[generate]]
generator = "planning"
sizes = [3, 4]
seeds = [0]
options = { gpu_types = "A800:1,RTX4090:2" }
methods = ["mchp", "exact-flow"]

[params.mchp]
deadline_weight = 2.0
"""


def _rows(store: Path, cwd: Path) -> list[tuple[str, str, int, float]]:
    done = packgap("report", str(store), "--rows", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    return sorted((r["instance"], r["method"], r["seed"], r["objective"]) for r in rows)


def test_spec_cells_and_derived_seeds(tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(SPEC)
    spec = load_spec(tmp_path / "s.toml")
    assert len(spec.cells) == 2 * 2 * 2 and spec.time_limit == 20
    assert len({c.seed for c in spec.cells}) == 8
    mchp = [c for c in spec.cells if c.method == "mchp"]
    assert all(c.params == {"deadline_weight": 2.0} for c in mchp)
    assert run_seed(5, "d", "m", 0) == run_seed(5, "d", "m", 0) != run_seed(5, "d", "m", 1)


def test_spec_sweep_resumes(tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(SPEC)
    args = ("sweep", "--spec", "s.toml", "--store", "a.duckdb", "--workers", "1")
    assert packgap(*args, cwd=tmp_path).returncode == 0
    first = _rows(tmp_path / "a.duckdb", tmp_path)
    assert len(first) == 8
    assert packgap(*args, cwd=tmp_path).returncode == 0
    assert _rows(tmp_path / "a.duckdb", tmp_path) == first


def test_bad_spec_names_the_key(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(SPEC.replace("sizes = [3, 4]", "sizes = 3"))
    done = packgap("sweep", "--spec", "bad.toml", "--store", "b.duckdb", cwd=tmp_path)
    assert done.returncode == 2 and "generate[0].sizes" in done.stderr


def test_dask_local_cluster_gives_the_local_rows(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    (tmp_path / "s.toml").write_text(SPEC)
    assert (
        packgap("sweep", "--spec", "s.toml", "--store", "local.duckdb", "--workers", "2", cwd=tmp_path).returncode == 0
    )
    # The scheduler's HTTP server starts even without a dashboard, on port 8787 unless told: a
    # second suite beside this one (make test-repeat) met it taken. ":0" takes a free port.
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        args = ("sweep", "--spec", "s.toml", "--store", "dask.duckdb", "--scheduler", cluster.scheduler_address)
        done = packgap(*args, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    local = _rows(tmp_path / "local.duckdb", tmp_path)
    assert _rows(tmp_path / "dask.duckdb", tmp_path) == local and len(local) == 8


def test_a_spec_sweep_finds_the_cells_of_a_cli_sweep(tmp_path: Path) -> None:
    """Both derive a run's seed from (base seed 0, instance, method, repetition 0): the README's
    two sweeps into one store run and count each cell once (they stored it twice before)."""
    cli = ("sweep", "planning", "--sizes", "3-4", "--seeds", "0", "--gpu-types", "A800:1,RTX4090:2")
    done = packgap(*cli, "--methods", "mchp,exact-flow", "--time-limit", "20", "--store", "c.duckdb", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first = _rows(tmp_path / "c.duckdb", tmp_path)
    spec = SPEC.replace("repetitions = 2\nseed = 5", "").split("[params.mchp]")[0]
    (tmp_path / "s.toml").write_text(spec)
    done = packgap("sweep", "--spec", "s.toml", "--store", "c.duckdb", "--workers", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(first) == 4 and _rows(tmp_path / "c.duckdb", tmp_path) == first
