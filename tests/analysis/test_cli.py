"""The CLI end to end: exit codes, JSON shapes, resume from the results store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap.analysis.store import ResultStore
from tests.clirun import packgap

GENERATE = ("instances", "generate", "planning", "--groups", "5", "--gpu-types", "A:1:1,B:1:1.5", "--seed", "4", "-o")


@pytest.fixture(scope="module")
def instance(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    path = folder / "p.json"
    done = packgap(
        *GENERATE,
        str(path),
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr
    return path


def test_version_and_methods(tmp_path):
    assert "packgap 0.1.0" in packgap("--version", cwd=tmp_path).stdout
    listing = packgap("methods", "planning", cwd=tmp_path).stdout
    for name in ("mchp", "fifo", "edf", "exact-flow", "exact-milp", "exact-cpsat"):
        assert name in listing


def test_same_seed_same_bytes_from_cli(instance, tmp_path):
    again = tmp_path / "again.json"
    packgap(
        *GENERATE,
        str(again),
        cwd=tmp_path,
    )
    assert again.read_bytes() == instance.read_bytes()


def test_check_and_show(instance, tmp_path):
    assert packgap("instances", "check", str(instance), cwd=tmp_path).returncode == 0
    shown = json.loads(packgap("instances", "show", str(instance), "--json", cwd=tmp_path).stdout)
    assert shown["family"] == "planning" and shown["groups"] == 5


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("instances", "check", "{bad}"), "groups[0].deadline"),
        (("instances", "check", "missing.json"), "cannot read file"),
        (("solve", "{good}", "--method", "nope"), "unknown planning method 'nope'"),
        (("solve", "{good}", "--method", "mchp", "--param", "colour=1"), "no parameter colour"),
        (("solve", "{good}", "--method", "mchp", "--time-limit", "-1"), "time_limit"),
        (("instances", "generate", "planning", "-o", "x.json"), "needs --groups"),
        (("instances", "generate", "planning", "--groups", "3", "--gpu-types", "A:0", "-o", "x.json"), "--gpu-types"),
        (("instances", "generate", "nothing", "--groups", "3", "-o", "x.json"), "No such command"),
    ],
)
def test_bad_input_exits_2_without_traceback(instance, tmp_path, args, fragment):
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "schema": "packgap.planning",
                "version": 1,
                "name": "b",
                "gpu_types": [{"name": "A", "count": 1}],
                "groups": [{"id": "g", "times": {"A": 1}, "deadline": -3}],
            }
        )
    )
    argv = [a.replace("{bad}", str(bad)).replace("{good}", str(instance)) for a in args]
    done = packgap(*argv, cwd=tmp_path)
    assert done.returncode == 2
    assert fragment in done.stderr
    assert "Traceback" not in done.stderr


def test_solve_json_is_auditable(instance, tmp_path):
    done = packgap("solve", str(instance), "--method", "exact-cpsat", "--json", "--time-limit", "20", cwd=tmp_path)
    result = json.loads(done.stdout)
    for key in (
        "family",
        "method",
        "status",
        "objective",
        "bound",
        "certified_gap",
        "bound_source",
        "objective_unit",
        "gap_unit",
        "wall_s",
        "solution",
        "solver",
        "seed",
        "params",
    ):
        assert key in result
    assert result["status"] == "optimal" and result["certified_gap"] == 0
    assert result["bound_source"] == "exact-cpsat optimum (all classes)" and result["objective_unit"] == "s"
    assert result["solution"]["sequences"]


def test_compare_json_and_store_resume(instance, tmp_path):
    db = tmp_path / "r.duckdb"
    args = (
        "compare",
        str(instance),
        "--methods",
        "mchp,edf,exact-cpsat",
        "--time-limit",
        "20",
        "--json",
        "--store",
        str(db),
    )
    first = json.loads(packgap(*args, cwd=tmp_path).stdout)
    assert [r["method"] for r in first] == ["mchp", "edf", "exact-cpsat"]
    best = min(r["objective"] for r in first)
    assert all(r["best_found_gap"] == pytest.approx((r["objective"] - best) / r["objective"], abs=1e-6) for r in first)
    # the exact method proves the optimum, so every certified gap is against it
    assert all(r["certified_gap"] == pytest.approx(r["best_found_gap"], abs=1e-9) for r in first)
    second = json.loads(packgap(*args, cwd=tmp_path).stdout)
    assert [r["wall_s"] for r in second] == [r["wall_s"] for r in first]  # reused, not rerun
    store = ResultStore(db)
    assert len(store.rows()) == 3
    store.close()


def test_compare_table(instance, tmp_path):
    done = packgap("compare", str(instance), "--methods", "all", "--time-limit", "20", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for word in ("mchp", "exact-milp", "certified", "bound source", "best-found", "optimum (all classes)"):
        assert word in done.stdout


MURI_HEADER = (
    "job_id,num_gpu,submit_time,iterations,model_name,batch_size,duration,interval,"
    "iteration_time,resource_time_0,resource_time_1,resource_time_2,priority\n"
)


def test_from_trace_muri_with_a_tiny_file_in_the_trace_format(tmp_path):
    folder = tmp_path / "traces" / "muri"
    folder.mkdir(parents=True)
    (folder / "tiny.csv").write_text(
        MURI_HEADER + "0,2,0,1000,vgg16,16,214000,0,214,82,75,66,0\n1,2,5000,2000,bert,4,380000,0,190,0.5,163,18,1\n"
    )
    out = tmp_path / "muri.json"
    done = packgap(
        "instances",
        "from-trace",
        "muri",
        "muri/tiny.csv",
        "--traces",
        str(tmp_path / "traces"),
        "--gpu-types",
        "V100:4",
        "-o",
        str(out),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(packgap("instances", "show", str(out), "--json", cwd=tmp_path).stdout)
    assert shown["family"] == "packing" and shown["jobs"] == 2
    missing = packgap(
        "instances", "from-trace", "muri", "nope.csv", "--traces", str(tmp_path), "-o", "x.json", cwd=tmp_path
    )
    assert missing.returncode == 2 and "nope.csv does not exist" in missing.stderr
    wrong = packgap("instances", "from-trace", "philly", "x.csv", "-o", "x.json", cwd=tmp_path)
    assert wrong.returncode == 2 and "No such command 'philly'" in wrong.stderr


def test_simulate_packing_online(tmp_path):
    instance = tmp_path / "pk.json"
    packgap("instances", "generate", "packing", "--jobs", "6", "--seed", "2", "-o", str(instance), cwd=tmp_path)
    plot = tmp_path / "online.png"
    done = packgap(
        "simulate", str(instance), "--pipeline", "dab+mchp,none+fifo", "--json", "--plot", str(plot), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert [p["pipeline"] for p in document["pipelines"]] == ["dab+mchp", "none+fifo"]
    bound = document["references"][0]
    assert bound["kind"] == "lower bound"
    assert all(p["metrics"]["mean_jct_s"] >= bound["mean_jct_s"] - 1e-9 for p in document["pipelines"])
    assert plot.read_bytes()[:4] == b"\x89PNG"
    bad = packgap("simulate", str(instance), "--pipeline", "dab+nothing", cwd=tmp_path)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
