"""Cluster traces end to end: from-trace pal-sia on tiny files in the trace formats, then
``simulate`` with every scheduler and placement policy, including the exact one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from packgap import jsonio
from packgap.analysis.registry import load_document
from packgap.errors import InstanceError
from packgap.placement import trace
from tests.clirun import packgap

POLICIES = ("pm-first", "pal", "packed-sticky", "packed-non-sticky", "random-sticky", "random-non-sticky", "exact")


def from_trace(folder: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``instances from-trace pal-sia`` on the tiny workload and GPU table in ``folder``."""
    workload, table = str(folder / "workload-1.csv"), str(folder / "table.csv")
    return packgap(
        "instances", "from-trace", "pal-sia", workload, "--gpu-factors", table, *extra, "-o", str(out), cwd=folder
    )


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """A 4-node x 4-GPU blox table and a 6-job workload, in the artifact's formats."""
    folder = tmp_path_factory.mktemp("pal")
    rows = ["GPU_ID,Node_ID,Local_GPU_ID,PerfVar_classA,PerfVar_classB,PerfVar_classC,PerfVar_classD"]
    for g in range(16):
        rows.append(
            f"{g},{g // 4},{g % 4},{1 + 0.07 * (g % 5)},{1 + 0.03 * (g % 3)},{1 + 0.05 * (g % 4)},{1.0 + 0.01 * g}"
        )
    (folder / "table.csv").write_text("\n".join(rows) + "\n")
    jobs = ["job_id,num_gpus,submit_time,duration,model"]
    jobs += [
        "0,1,0,1000.0,vgg19",
        "1,4,10,3000.0,resnet50",
        "2,2,20,500.0,BERT",
        "3,8,400,800.0,PointNet",
        "4,1,800,2000.0,GPT2",
        "5,3,900,1200.0,DCGAN",
    ]
    (folder / "workload-1.csv").write_text("\n".join(jobs) + "\n")
    out = folder / "trace.json"
    done = from_trace(folder, out)
    assert done.returncode == 0, done.stderr
    return out


def test_trace_file_round_trips_and_checks(tiny):
    doc = load_document(tiny)
    assert doc.kind == "cluster-trace" and len(doc.value.jobs) == 6 and doc.value.cluster.num_gpus == 16
    assert jsonio.dumps(trace.to_dict(doc.value)) == tiny.read_text()
    assert packgap("instances", "check", str(tiny), cwd=tiny.parent).returncode == 0


def test_bad_trace_reports_paths(tmp_path, tiny):
    bad = json.loads(tiny.read_text())
    bad["jobs"][1]["gpus"] = 64
    bad["jobs"][2]["job_class"] = "Z"
    bad["cluster"]["pm_scores"]["A"] = [1.0]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(InstanceError) as info:
        load_document(path)
    paths = {p.path for p in info.value.problems}
    assert {"jobs[1].gpus", "jobs[2].job_class", "cluster.pm_scores.A"} <= paths
    done = packgap("instances", "check", str(path), cwd=tmp_path)
    assert done.returncode == 2 and "jobs[1].gpus" in done.stderr


@pytest.mark.parametrize("placement", POLICIES)
def test_simulate_every_policy(tiny, placement):
    done = packgap(
        "simulate",
        str(tiny),
        "--scheduler",
        "fifo",
        "--placement",
        placement,
        "--json",
        "--time-limit",
        "5",
        cwd=tiny.parent,
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert {"mean_jct_s", "p99_jct_s", "makespan_s"} <= set(run["metrics"])
    assert [j["id"] for j in run["jobs"]] == ["0", "1", "2", "3", "4", "5"]
    for job in run["jobs"]:
        assert job["jct_s"] == pytest.approx(job["finish_s"] - job["submit_s"])
        assert job["finish_s"] % 300 == 0  # completions are noticed at round ends
    assert run["metrics"]["makespan_s"] == max(j["finish_s"] for j in run["jobs"])


@pytest.mark.parametrize("scheduler", ["fifo", "las", "srtf"])
def test_schedulers_and_plot(tiny, scheduler, tmp_path):
    plot = tmp_path / "run.png"
    done = packgap(
        "simulate", str(tiny), "--scheduler", scheduler, "--placement", "pal", "--plot", str(plot), cwd=tiny.parent
    )
    assert done.returncode == 0, done.stderr
    assert "mean_jct_s" in done.stdout and plot.read_bytes()[:4] == b"\x89PNG"


def test_simulate_rejects_options_of_the_other_kind(tiny):
    done = packgap("simulate", str(tiny), "--pipeline", "dab+mchp", cwd=tiny.parent)
    assert done.returncode == 2 and "--pipeline" in done.stderr
    done = packgap("simulate", str(tiny), "--placement", "best-fit", cwd=tiny.parent)
    assert done.returncode == 2 and "unknown placement policy 'best-fit'" in done.stderr


def test_blox_replay_uses_the_artifact_round(tiny, tmp_path):
    out = tmp_path / "blox.json"
    folder = tiny.parent
    done = from_trace(folder, out, "--replay", "blox")
    assert done.returncode == 0, done.stderr
    assert load_document(out).value.round_length == 360.0
    run = json.loads(packgap("simulate", str(out), "--placement", "packed-sticky", "--json", cwd=folder).stdout)
    assert run["replay"] == "blox" and all(j["finish_s"] % 360 == 0 for j in run["jobs"])


def test_round_gaps_compare_every_round_with_the_exact_optimum(tiny):
    done = packgap(
        "simulate",
        str(tiny),
        "--placement",
        "packed-non-sticky",
        "--round-gaps",
        "1",
        "--json",
        "--time-limit",
        "10",
        cwd=tiny.parent,
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert run["round_gaps"] and run["metrics"]["rounds_solved"] == len(run["round_gaps"])
    for gap in run["round_gaps"]:
        assert gap["status"] == "optimal"
        assert gap["exact"] <= gap["objective"] + 1e-9
        assert gap["primal_gap"] >= 0


def test_synergy_generator_is_seeded_and_simulates(tmp_path):
    paths = [tmp_path / f"s{i}.json" for i in range(3)]
    for path, seed in zip(paths, ("4", "4", "5"), strict=True):
        done = packgap(
            "instances",
            "generate",
            "synergy",
            "--jobs",
            "40",
            "--gpus",
            "16",
            "--rate",
            "6",
            "--seed",
            seed,
            "-o",
            str(path),
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
    assert paths[0].read_bytes() == paths[1].read_bytes() != paths[2].read_bytes()
    trace_ = load_document(paths[0]).value
    assert trace_.cluster.num_gpus == 16 and len(trace_.jobs) == 40
    assert sum(j.gpus == 1 for j in trace_.jobs) >= 0.6 * len(trace_.jobs)
    run = json.loads(packgap("simulate", str(paths[0]), "--placement", "pm-first", "--json", cwd=tmp_path).stdout)
    assert len(run["jobs"]) == 40
