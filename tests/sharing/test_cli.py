"""The sharing kit through the CLI: pair, generate, solve, simulate, from-trace, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap import jsonio
from packgap.analysis.registry import kit
from tests.clirun import packgap
from tests.traces import trace_path

TRACES = trace_path()


def test_kit_is_registered_with_every_piece() -> None:
    k = kit("sharing")
    names = {m.name for m in k.methods}
    methods = ("fifo", "sjf", "tiresias", "sjf-ffs", "sjf-bsbf", "exact-bb", "exact-milp", "exact-cpsat")
    assert {*methods, "bound", "bound-lp"} <= names
    assert {b.name for b in k.trace_builders} == {"sharing-pollux", "sharing-philly"}
    assert k.simulation is not None and k.commands is not None


def test_pair_json_and_bad_values(tmp_path: Path) -> None:
    ok = packgap(
        "sharing",
        "pair",
        "--running-remaining",
        "100",
        "--new",
        "50",
        "--xi-running",
        "1.2",
        "--xi-new",
        "1.2",
        "--json",
        cwd=tmp_path,
    )
    assert ok.returncode == 0, ok.stderr
    doc = json.loads(ok.stdout)
    assert doc["share"] is True and doc["kappa"] == 0.0 and doc["t_seq"] == 125.0
    assert doc["t_con"] == pytest.approx(85.0)
    bad = packgap(
        "sharing",
        "pair",
        "--running-remaining",
        "-5",
        "--new",
        "50",
        "--xi-running",
        "0.9",
        "--xi-new",
        "1.2",
        cwd=tmp_path,
    )
    assert bad.returncode == 2
    assert "xi-running" in bad.stderr and "running-remaining" in bad.stderr and "Traceback" not in bad.stderr


def test_generate_solve_and_simulate(tmp_path: Path) -> None:
    # The same seed twice: byte-identical files.
    generate = ("instances", "generate", "sharing", "--jobs", "12", "--seed", "3", "--nodes", "1", "--workload", "v1")
    for out in ("w.json", "w2.json"):
        made = packgap(*generate, "-o", out, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
    assert (tmp_path / "w.json").read_bytes() == (tmp_path / "w2.json").read_bytes()
    solved = packgap("solve", "w.json", "--method", "sjf-bsbf", "--json", cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["objective"] > 0
    sim = packgap("simulate", "w.json", "--policy", "all", "--json", cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    doc = json.loads(sim.stdout)
    assert [r["policy"] for r in doc["runs"]] == ["fifo", "sjf", "tiresias", "sjf-ffs", "sjf-bsbf"]
    assert all(r["metrics"]["avg_jct_s"] >= doc["bound_avg_jct_s"] * (1 - 1e-9) for r in doc["runs"])
    assert doc["lp_bound_avg_jct_s"] is not None
    assert doc["bound_avg_jct_s"] == max(doc["cheap_bound_avg_jct_s"], doc["lp_bound_avg_jct_s"])
    cheap = packgap("simulate", "w.json", "--policy", "sjf", "--bound", "cheap", "--json", cwd=tmp_path)
    assert cheap.returncode == 0, cheap.stderr
    only = json.loads(cheap.stdout)
    assert only["lp_bound_avg_jct_s"] is None
    assert only["bound_avg_jct_s"] == only["cheap_bound_avg_jct_s"] == doc["cheap_bound_avg_jct_s"]
    milp = json.loads(
        packgap("simulate", "w.json", "--policy", "sjf", "--bound", "milp", "--json", cwd=tmp_path).stdout
    )
    assert milp["bound_kind"] == "milp" and milp["lp_bound_avg_jct_s"] is not None
    assert (
        doc["cheap_bound_avg_jct_s"] <= milp["bound_avg_jct_s"] <= milp["runs"][0]["metrics"]["avg_jct_s"] * (1 + 1e-9)
    )
    # The run LP takes seconds (8.7 s beside a make test-repeat); the limit only keeps "Optimal"
    # from depending on the machine's load.
    cls = json.loads(
        packgap(
            "simulate", "w.json", "--policy", "all", "--bound", "class", "--time-limit", "600", "--json", cwd=tmp_path
        ).stdout
    )
    assert cls["bound_avg_jct_s"] == doc["bound_avg_jct_s"] and cls["class_status"] == "Optimal"
    assert cls["bound_avg_jct_s"] <= cls["class_bound_avg_jct_s"]
    assert all(
        r["metrics"]["avg_jct_s"] >= cls["class_bound_avg_jct_s"] * (1 - 1e-9)
        for r in cls["runs"]
        if r["policy"] != "tiresias"
    )
    bad = packgap("simulate", "w.json", "--bound", "tight", cwd=tmp_path)
    assert bad.returncode == 2 and "bound" in bad.stderr and "Traceback" not in bad.stderr


def test_bad_instance_exits_2_with_field_paths(tmp_path: Path) -> None:
    from packgap.instances.sharing.generator import generate
    from packgap.sharing import instance

    doc = instance.to_dict(generate(3, 1))
    doc["interference"]["default"] = 0.5
    doc["jobs"][1]["gpus"] = 1000
    doc["jobs"][2]["model"] = "nope"
    (tmp_path / "bad.json").write_text(jsonio.dumps(doc))
    res = packgap("solve", "bad.json", "--method", "sjf", cwd=tmp_path)
    assert res.returncode == 2
    for path in ("interference.default", "jobs[1].gpus", "jobs[2].model"):
        assert path in res.stderr
    assert "Traceback" not in res.stderr


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "pollux").is_dir(), reason="no trace folder")
def test_pollux_and_philly_trace_builders(tmp_path: Path) -> None:
    workload = TRACES / "pollux" / "workloads" / "workload-1.csv"
    res = packgap(
        "instances",
        "from-trace",
        "sharing-pollux",
        str(workload),
        "-o",
        "p.json",
        "--traces",
        str(TRACES),
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    doc = json.loads((tmp_path / "p.json").read_text())
    assert len(doc["jobs"]) == 160 and "gavel" in doc["interference"]["source"]
    res = packgap(
        "instances",
        "from-trace",
        "sharing-philly",
        str(TRACES / "philly" / "philly.csv"),
        "--jobs",
        "50",
        "--xi-source",
        "lucid",
        "-o",
        "q.json",
        "--traces",
        str(TRACES),
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    doc = json.loads((tmp_path / "q.json").read_text())
    assert len(doc["jobs"]) == 50 and "lucid" in doc["interference"]["source"]


def test_trace_builders_on_tiny_files(tmp_path: Path) -> None:
    """The same readers on files written here in the official formats (no trace folder)."""
    from packgap.instances.sharing.traces import from_philly, from_pollux, lucid_xi

    profiles = tmp_path / "profiles"
    for app in ("bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"):
        (profiles / app).mkdir(parents=True)
        rows = ["placement,local_bsz,step_time,sync_time"]
        rows += [f"1,{b},{0.01 + 0.001 * b},0.0001" for b in (8, 16, 32)]
        rows += [f"22,{b},{0.05 + 0.001 * b},0.04" for b in (8, 16)]
        (profiles / app / "placements.csv").write_text("\n".join(rows) + "\n")
    colocate = tmp_path / "colocate.csv"
    header = ",model1,dataset1,gpu_num1,batchsize1,amp1,speed1,model2,dataset2,gpu_num2,batchsize2,amp2,speed2"
    colocate.write_text(header + ",gpu_util,gmem_util,gmem\n0,ResNet18,C,1,32,0,0.8,NeuMF,M,1,32,0,0.5,1,1,1\n")
    xi = lucid_xi(colocate)
    assert xi.xi("cifar10", "ncf") == pytest.approx(1.25) and xi.xi("ncf", "cifar10") == pytest.approx(2.0)
    workload = tmp_path / "w.csv"
    workload.write_text("name,time,application,num_replicas,batch_size\nc-0,10,cifar10,2,256\nn-1,30,ncf,1,4096\n")
    inst = from_pollux(workload, profiles=profiles, xi_source="global", xi=1.3)
    assert [j.arrival for j in inst.jobs] == [0.0, 20.0] and inst.jobs[0].batch == 128
    philly = tmp_path / "philly.csv"
    lines = ["timestamp,duration,num_gpus,gpu_time,cluster"]
    lines += [f"2017-10-01 0{h}:00:00,{600 * (h + 1)},{1 + h % 2},0,x" for h in range(8)]
    philly.write_text("\n".join(lines) + "\n")
    inst = from_philly(philly, jobs=4, seed=1, hours=8, xi_source="global", xi=1.2)
    assert len(inst.jobs) == 4 and inst.jobs[0].arrival == 0.0
