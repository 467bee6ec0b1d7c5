"""The load study on Pollux's trace workloads: tiny trace folders written here, and the real one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap.errors import PackgapError
from packgap.instances.traces import ENV, traces_dir
from packgap.paper_figures.sjf_bsbf import pollux_load
from packgap.paper_figures.sjf_bsbf.common import mean_metric

APPS = ("bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3")


def _quiet(*_: object, **__: object) -> None:
    return None


def write_traces(root: Path) -> None:
    """Four load folders of one workload each, Pollux profiles and a Gavel co-location table."""
    for folder in pollux_load.LOADS.values():
        (root / "pollux" / folder).mkdir(parents=True)
        rows = ["name,time,application,num_replicas,batch_size", "c-0,10,cifar10,2,256", "n-1,30,ncf,1,4096"]
        if folder != "workloads-0.5":
            rows.append("c-2,40,cifar10,4,512")
        (root / "pollux" / folder / "workload-1.csv").write_text("\n".join(rows) + "\n")
    for app in APPS:
        (root / "pollux" / "throughput_profiles" / app).mkdir(parents=True)
        lines = ["placement,local_bsz,step_time,sync_time"]
        lines += [f"1,{b},{0.01 + 0.001 * b},0.0001" for b in (8, 16, 32)]
        lines += [f"22,{b},{0.05 + 0.001 * b},0.04" for b in (8, 16)]
        (root / "pollux" / "throughput_profiles" / app / "placements.csv").write_text("\n".join(lines) + "\n")
    (root / "gavel").mkdir()
    pair = {"null": 4.0, "('Recommendation (batch size 16)', 1)": [2.5, 3.0]}
    table = {"v100": {"('ResNet-18 (batch size 16)', 1)": pair}}
    (root / "gavel" / "simulation_throughputs.json").write_text(json.dumps(table))


def test_every_load_runs_every_policy_on_tiny_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_traces(tmp_path)
    monkeypatch.setenv(ENV, str(tmp_path))
    rows = pollux_load.compute(True, _quiet)
    assert [(r["load"], len(r["runs"])) for r in rows] == [(0.5, 5), (1.0, 5), (1.5, 5), (2.0, 5)]
    for row in rows:
        jcts = [r["metrics"]["avg_jct_s"] for r in row["runs"]]
        assert row["bound_avg_jct_s"] <= min(jcts) * (1 + 1e-9)
    values = {v.quantity: v for v in pollux_load.compare(rows)}
    claim = values["SJF-BSBF's JCT reduction vs sjf-ffs at 1.5x"]
    assert claim.paper == pytest.approx(1 - 1.01 / 1.23)
    at = [r for r in rows if r["load"] == 1.5]
    expected = 1 - mean_metric(at, "sjf-bsbf", "avg_jct_s") / mean_metric(at, "sjf-ffs", "avg_jct_s")
    assert claim.ours == pytest.approx(expected)


def test_a_missing_folder_is_a_row_that_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, str(tmp_path))
    rows = pollux_load.compute(True, _quiet)
    assert len(rows) == 1 and rows[0]["missing"].startswith(pollux_load.MISSING)
    (value,) = pollux_load.compare(rows)
    assert value.ours is None and value.note.startswith(pollux_load.MISSING)


def _real_traces() -> Path | None:
    try:
        root = traces_dir(None)
    except PackgapError:
        return None
    return root if (root / "pollux" / "workloads-2.0").is_dir() and (root / "gavel").is_dir() else None


@pytest.mark.traces
@pytest.mark.skipif(_real_traces() is None, reason="no Pollux / Gavel trace folder")
def test_the_published_workloads_in_quick_mode() -> None:
    rows = pollux_load.compute(True, _quiet)
    assert [len(r["runs"]) for r in rows] == [5, 5, 5, 5]
    jobs = {r["load"]: r["jobs"] for r in rows}
    assert jobs == {0.5: 80, 1.0: 160, 1.5: 240, 2.0: 320}


def test_registered_and_drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from packgap.analysis.figures import reproductions

    assert pollux_load.REPRODUCTION in reproductions().values()
    write_traces(tmp_path / "traces")
    monkeypatch.setenv(ENV, str(tmp_path / "traces"))
    paths = pollux_load.REPRODUCTION.draw(pollux_load.compute(True, _quiet), tmp_path / "out")
    assert [p.suffix for p in paths] == [".png", ".pdf"] and all(p.stat().st_size > 0 for p in paths)
    assert pollux_load.REPRODUCTION.draw([{"missing": "traces not available"}], tmp_path / "none") == []
