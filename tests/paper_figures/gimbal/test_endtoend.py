"""GIMBAL's Table 2 and Figs. 8-11 on tiny Philly and openb files the tests write, and the run
views they read (throughput over time, deadlines met per job class)."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.analysis.agreement import agrees
from packgap.analysis.figures import reproductions
from packgap.analysis.kit import no_tick
from packgap.heuristics.calibration.online import run_workload, solo_step_s
from packgap.instances.calibration.workload import OPENB_START_S, from_openb, generate
from packgap.paper_figures.gimbal import endtoend

REPRODUCTIONS = reproductions()
OPENB_HEAD = (
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
)


@pytest.fixture
def tiny_traces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """20 Philly jobs and 24 openb pods (4 without a GPU), all within minutes of each other."""
    (tmp_path / "philly").mkdir()
    lines = ["timestamp,duration,num_gpus,gpu_time,cluster"]
    lines += [f"2017-10-02 09:{m:02d}:00,{300 + 240 * (m % 7)}.0,1,1.0,abc" for m in range(20)]
    (tmp_path / "philly" / "philly.csv").write_text("\n".join(lines) + "\n")
    folder = tmp_path / "alibaba-gpu-v2023-openb"
    folder.mkdir()
    start = int(OPENB_START_S)
    pods = [
        f"p{i},1,1,{0 if i % 6 == 5 else 1 + i % 2},1000,,LS,Running,{start + 300 * i},"
        f"{start + 300 * i + 600 + 200 * (i % 5)},{start + 300 * i}"
        for i in range(24)
    ]
    (folder / "openb_pod_list_default.csv").write_text("\n".join([OPENB_HEAD, *pods]) + "\n")
    monkeypatch.setenv("PACKGAP_TRACES", str(tmp_path))
    return tmp_path


def test_throughput_integrates_to_the_solo_work_and_classes_split_the_met_deadlines():
    w = generate(16, seed=3, rate=60.0, max_hours=0.5)
    run = run_workload(w, "gandiva", "baseline")
    bins = run.throughput(600.0)
    solo_gpu_s = sum(j.world_size * solo_step_s(w, j) * j.steps for j in w.jobs)
    assert len(bins) == -(-run.run.makespan // 600.0)
    last = run.run.makespan - 600.0 * (len(bins) - 1)
    assert sum(bins[:-1]) * 600.0 + bins[-1] * last == pytest.approx(solo_gpu_s, rel=1e-9)
    assert max(bins) > 0 and bins[-1] > 0
    met = run.met()
    assert sum(met.values()) == run.metrics["deadlines_met"]
    assert {endtoend.job_class(j.model) for j in w.jobs} <= set(endtoend.JOB_CLASSES)


def test_openb_arrival_gaps_are_compressed(tiny_traces: Path):
    path = tiny_traces / endtoend.TRACE_FILES["alibaba"]
    plain, fast = from_openb(path, start_s=0), from_openb(path, start_s=0, compress=6.0)
    assert [j.arrival / 6 for j in plain.jobs] == pytest.approx([j.arrival for j in fast.jobs])
    assert [j.steps for j in plain.jobs] == [j.steps for j in fast.jobs]


def test_table2_counts_follow_the_paper_proportions(tiny_traces: Path):
    rep = REPRODUCTIONS["gimbal-table2"]
    rows = rep.compute(True, no_tick)
    philly = {r["class"]: r for r in rows if r["trace"] == "philly"}
    alibaba = {r["class"]: r for r in rows if r["trace"] == "alibaba"}
    assert {r["workload"] for r in rows} == {"philly", "alibaba (openb)"}
    assert [philly[c]["jobs"] for c in endtoend.JOB_CLASSES] == [6, 11, 3]  # 20 jobs as 43 : 86 : 21
    assert sum(r["jobs"] for r in alibaba.values()) == 20  # 24 pods, 4 without a GPU
    assert all(1 <= r["mean_gpus"] <= 8 for r in rows)
    paper = {v.quantity: v.paper for v in rep.compare(rows)}
    assert paper["Philly, large: jobs"] == 21 and paper["Alibaba, small: mean GPUs per job"] == 1.98


@pytest.mark.parametrize("name", ["gimbal-fig8", "gimbal-fig9", "gimbal-fig10", "gimbal-fig11"])
def test_end_to_end_views_on_tiny_traces(tiny_traces: Path, tmp_path: Path, name: str):
    rep = REPRODUCTIONS[name]
    rows = rep.compute(True, no_tick)
    assert {r["trace"] for r in rows} == {"philly", "alibaba"}
    assert {r["workload"] for r in rows} == {"philly", "alibaba (openb)"}
    values = rep.compare(rows)
    assert values and all(v.ours is not None for v in values)
    assert all(v.cause or v.note for v in values if agrees(v, values) == "no")
    assert all(p.is_file() for p in rep.draw(rows, tmp_path / "figures"))


def test_views_read_the_runs_of_fig8(tiny_traces: Path):
    """Fig. 10's view of a run and Fig. 8's metrics of it are the same run."""
    fig8 = {
        (r["trace"], r["variant"]): r
        for r in REPRODUCTIONS["gimbal-fig8"].compute(True, no_tick)
        if r["base"] == "gandiva"
    }
    for row in REPRODUCTIONS["gimbal-fig10"].compute(True, no_tick):
        met = sum(row[f"{c}_met"] for c in endtoend.JOB_CLASSES)
        assert met == fig8[(row["trace"], row["variant"])]["deadlines_met"]
        assert sum(row[f"{c}_jobs"] for c in endtoend.JOB_CLASSES) == row["jobs"]
