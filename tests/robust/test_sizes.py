"""Issue 22.3: sizes nobody bounded are checked before any work, refused with an estimate of
what they would take (exit 2). Each case runs in this process under a memory limit; the two that
once ran out of memory also run as a user would, in a subprocess limited to 3 GB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap import jsonio
from packgap.analysis.calibration.commands import MAX_ESTIMATE_S, estimated_seconds
from packgap.analysis.registry import to_document
from packgap.instances.calibration.jobsets import generate as generate_calibration
from packgap.instances.planning.generator import generate
from packgap.instances.sharing.generator import generate as generate_sharing
from tests.robust.inprocess import run
from tests.robust.limited import packgap_limited


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sizes")
    planning = to_document("planning", generate(4, seed=1))
    planning["gpu_types"][0]["count"] = 10**9
    (root / "many-gpus.json").write_text(json.dumps(planning))
    sharing = to_document("sharing", generate_sharing(6, seed=1, nodes=2))
    sharing["cluster"]["nodes"] = 10**8
    (root / "many-nodes.json").write_text(json.dumps(sharing))
    calibration = to_document("calibration", generate_calibration(3, seed=1))
    calibration["cluster"]["nodes"] = 10**8
    (root / "many-calibration-nodes.json").write_text(json.dumps(calibration))
    return root


CASES = [
    (
        ("compare", "many-gpus.json", "--methods", "mchp"),
        "gpu_types[0].count: 1,000,000,000 GPUs would need about 200.0 GB of per-GPU state; "
        "at most 1,000,000 GPUs in one instance",
    ),
    (("instances", "check", "many-gpus.json"), "gpu_types[0].count: 1,000,000,000 GPUs"),
    (
        ("simulate", "many-nodes.json", "--policy", "sjf-bsbf"),
        "cluster.nodes: 100,000,000 nodes x 4 GPUs: 400,000,000 GPUs would need about 80.0 GB",
    ),
    (
        ("instances", "check", "many-calibration-nodes.json"),
        "cluster.nodes: 100,000,000 nodes x 2 GPUs: 200,000,000 GPUs would need about 40.0 GB",
    ),
    (
        ("instances", "generate", "planning", "--groups", "4", "--gpu-types", "A800:1000000000", "-o", "x.json"),
        "--gpu-types A800:1000000000: 1,000,000,000 GPUs would need about 200.0 GB",
    ),
    (("calibration", "table3", "--granularity", "0.1"), "--granularity 0.1: a 0.1 % grid takes about 61.9 h"),
    (("calibration", "table3", "--granularity", "inf"), "--granularity: an LGRR step in % must lie in (0, 100]"),
    (
        ("sweep", "planning", "--sizes", "1-100000000", "--store", "s.duckdb"),
        "--sizes: '1-100000000' makes 100,000,000 values, one instance each; at most 10,000 in one sweep",
    ),
    (
        ("sweep", "planning", "--sizes", "1-100", "--seeds", "0-200", "--store", "s.duckdb"),
        "--sizes x --seeds: 100 x 201 instances",
    ),
    (("instances", "generate", "calibration", "--jobs", "10000000", "-o", "x.json"), "less than or equal to 100000"),
    (("instances", "generate", "sharing", "--jobs", "4", "--hours", "inf", "-o", "x.json"), "--hours must be a finite"),
    (
        ("instances", "generate", "calibration-workload", "--jobs", "4", "--max-hours", "inf", "-o", "x.json"),
        "--max-hours must be a finite number, got inf",
    ),
    (("instances", "generate", "calibration-workload", "--jobs", "10000000", "-o", "x.json"), "100000"),
]


@pytest.mark.parametrize(("args", "fragment"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_a_size_beyond_the_bound_is_refused_with_its_estimate(
    files: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], fragment: str
) -> None:
    monkeypatch.chdir(files)
    code, err = run(*args)
    assert code == 2, err
    assert fragment in " ".join(err.split()), err
    assert not (files / "x.json").exists()


@pytest.mark.parametrize(
    "args",
    [("compare", "many-gpus.json", "--methods", "mchp"), ("simulate", "many-nodes.json", "--policy", "sjf-bsbf")],
    ids=["compare", "simulate"],
)
def test_former_memory_errors_end_cleanly_in_a_3_gb_process(files: Path, args: tuple[str, ...]) -> None:
    done = packgap_limited(*args, cwd=files)
    assert done.returncode == 2, done.stderr
    assert "GPUs would need about" in done.stderr and "Traceback" not in done.stderr


def test_a_million_gpus_still_load(tmp_path: Path) -> None:
    doc = to_document("planning", generate(4, seed=1))
    doc["gpu_types"][0]["count"] = 10**6
    jsonio.write(doc, tmp_path / "p.json")
    code, err = run("instances", "check", str(tmp_path / "p.json"))
    assert code == 0, err


def test_the_table3_estimate_allows_the_finest_grid_within_an_hour() -> None:
    assert estimated_seconds(10.0) < 1 < estimated_seconds(1.0) < MAX_ESTIMATE_S
    assert estimated_seconds(0.4) <= MAX_ESTIMATE_S < estimated_seconds(0.39)
