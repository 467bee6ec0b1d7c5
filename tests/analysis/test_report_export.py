"""``report --export`` (CSV, Parquet) and ``--profile`` (Dolan-More) from the store alone."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from packgap import jsonio
from packgap.analysis.profiles import ratios
from packgap.analysis.registry import to_document
from packgap.instances.planning.generator import generate
from tests.clirun import packgap


def test_export_and_profile(tmp_path: Path) -> None:
    for seed in (1, 2):
        jsonio.write(to_document("planning", generate(5, seed=seed)), tmp_path / f"p{seed}.json")
    store = str(tmp_path / "r.duckdb")
    done = packgap("compare", "p1.json", "p2.json", "--methods", "mchp,edf,exact-flow", "--store", store, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for name in ("rows.csv", "rows.parquet"):
        assert packgap("report", store, "--export", name, cwd=tmp_path).returncode == 0
    csv = pd.read_csv(tmp_path / "rows.csv")
    assert len(csv) == 6 and set(csv["method"]) == {"mchp", "edf", "exact-flow"}
    assert (tmp_path / "rows.parquet").read_bytes()[:4] == b"PAR1"
    shown = packgap("report", store, "--profile", "objective", "--plot", "prof.png", cwd=tmp_path)
    assert shown.returncode == 0 and (tmp_path / "prof.png").read_bytes()[:4] == b"\x89PNG"
    bad = packgap("report", store, "--profile", "speed", "--plot", "prof.png", cwd=tmp_path)
    assert bad.returncode == 2 and "--profile speed" in bad.stderr


def test_ratios_are_one_for_the_best_and_inf_without_answer() -> None:
    frame = pd.DataFrame(
        {
            "instance_digest": ["a", "a", "b", "b"],
            "method": ["x", "y", "x", "y"],
            "wall_s": [1.0, 4.0, 2.0, 1.0],
            "objective": [10.0, 12.0, None, 5.0],
        }
    )
    table = ratios(frame, "time")
    assert table.loc["a", "x"] == 1.0 and table.loc["a", "y"] == 4.0
    assert math.isinf(table.loc["b", "x"]) and table.loc["b", "y"] == 1.0
