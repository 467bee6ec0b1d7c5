"""Table-driven CLI robustness (issue 12): every bad or unusual invocation ends with a clear
message naming the field or cause and exit 2 (never a traceback), or does the right thing.
New commands join by adding rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap import jsonio
from packgap.analysis.registry import to_document
from packgap.instances.packing.generator import generate as generate_packing
from packgap.instances.planning.generator import generate
from tests.clirun import packgap


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("robust")
    jsonio.write(to_document("planning", generate(4, seed=1)), root / "p.json")
    jsonio.write(to_document("packing", generate_packing(4, seed=1)), root / "pk.json")
    (root / "latin1.json").write_bytes(b'{"schema": "packgap.planning", "name": "caf\xe9"}')
    (root / "results.json").write_text("{}\n")
    big = json.loads((root / "p.json").read_text())
    big["groups"][0]["deadline"] = 1e300
    (root / "big.json").write_text(json.dumps(big))
    return root


BAD = [
    (("instances", "check", "latin1.json"), "not UTF-8"),
    (("instances", "check", "big.json"), "groups[0].deadline"),
    (("solve", "p.json", "-m", "mchp", "-o", "missing/out.json"), "does not exist"),
    (("solve", "p.json", "-m", "mchp", "-o", "."), "is a folder"),
    (("solve", "p.json", "-m", "mchp", "--param", "tie_break=zzz"), "tie_break"),
    (("solve", "p.json", "-m", "mchp", "--seed", "-1"), "--seed"),
    (("simulate", "pk.json", "--pipeline", "dab+mchp", "--plot", "missing/run.png"), "does not exist"),
    (("simulate", "pk.json", "--pipeline", "dab+mchp", "--plot", "run.txt"), "unknown file format"),
    (("simulate", "pk.json", "--reference", "dab+mchp"), "--reference"),
    (("sweep", "planning", "--sizes", "8-4", "--store", "s.duckdb"), "empty range"),
    (("sweep", "planning", "--sizes", "4", "--workers", "0", "--store", "s.duckdb"), "--workers"),
    (("sweep", "planning", "--sizes", "4", "--workers", "-1", "--store", "s.duckdb"), "--workers"),
    (("instances", "generate", "planning", "--groups", "1000000000", "-o", "x.json"), "--groups"),
    (("instances", "generate", "planning", "--groups", "1e9", "-o", "x.json"), "--groups"),
    (("instances", "from-trace", "muri", "t.csv", "--max-jobs", "-5", "-o", "x.json"), "--max-jobs"),
    (("compare", "p.json", "--methods", "mchp", "--store", "results.json"), "not a DuckDB results store"),
    (("report", "results.json"), "not a DuckDB results store"),
    (
        ("instances", "generate", "planning", "--groups", "3", "--gpu-types", "H100:2", "-o", "x.json"),
        "unknown GPU type",
    ),
    (("instances", "generate", "packing", "--jobs", "3", "--gpu-types", "H100:2:x", "-o", "x.json"), "FACTOR of H100"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_invocations_exit_2_with_the_cause(files: Path, args: tuple[str, ...], fragment: str) -> None:
    done = packgap(*args, cwd=files)
    assert done.returncode == 2, done.stdout + done.stderr
    assert fragment in done.stderr.replace("\n", " ") or fragment in done.stderr
    assert "Traceback" not in done.stderr


def test_the_placement_generator_says_when_jobs_do_not_fit(tmp_path: Path) -> None:
    done = packgap("instances", "generate", "placement", "--gpus", "64", "--jobs", "20", "-o", "r.json", cwd=tmp_path)
    assert done.returncode == 0
    assert "only 8 jobs of this draw fit on 64 GPUs" in done.stderr


def test_simulate_store_keeps_online_rows_beside_offline_ones(files: Path, tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    sim = packgap("simulate", str(files / "pk.json"), "--pipeline", "none+edf", "--store", str(store), cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    assert (
        packgap(
            "compare", str(files / "pk.json"), "--methods", "none+edf", "--store", str(store), cwd=tmp_path
        ).returncode
        == 0
    )
    rows = json.loads(packgap("report", str(store), "--rows", "--json", cwd=tmp_path).stdout)
    assert sorted(r["method"] for r in rows) == ["none+edf", "simulate:none+edf"]
    online = next(r for r in rows if r["method"].startswith("simulate:"))
    assert online["objective"] is None and json.loads(online["result"])["metrics"]["mean_jct_s"] > 0


def test_a_named_factor_gives_an_unknown_type_its_speed(tmp_path: Path) -> None:
    done = packgap(
        "instances", "generate", "planning", "--groups", "3", "--gpu-types", "H100:2:0.6", "-o", "h.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert [t["name"] for t in json.loads((tmp_path / "h.json").read_text())["gpu_types"]] == ["H100"]


def test_files_keep_full_precision(tmp_path: Path) -> None:
    done = packgap("instances", "generate", "packing", "--jobs", "3", "-o", "pk.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "pk.json").read_text())["alpha"] == 1 / 3600


def test_tables_are_not_cut_when_output_is_not_a_terminal(files: Path) -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    code = "from packgap.analysis.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "methods", "packing"],
        cwd=files,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0
    assert "then the exact GPU type and start of its groups (CP-SAT)" in done.stdout
    assert "\u2026" not in done.stdout
