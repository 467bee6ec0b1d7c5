"""End to end: workloads (generator, Philly and openb builders) and the base schedulers +- GIMBAL."""

from __future__ import annotations

import json

import pytest

from packgap.calibration import workload as workload_module
from packgap.errors import InstanceError, PackgapError
from packgap.heuristics.calibration.online import Policy, run_workload
from packgap.heuristics.calibration.variants import VARIANTS
from packgap.instances.calibration.workload import from_openb, from_philly, generate
from packgap.instances.traces import traces_dir


def test_generated_workload_round_trip_and_determinism():
    a = workload_module.to_dict(generate(30, seed=2))
    assert json.dumps(a) == json.dumps(workload_module.to_dict(generate(30, seed=2)))
    assert workload_module.from_dict(a) == generate(30, seed=2)


def test_workload_reader_names_fields():
    doc = workload_module.to_dict(generate(3, seed=0))
    doc["jobs"][1]["model"] = "Nope"
    doc["jobs"][2]["world_size"] = 64
    with pytest.raises(InstanceError) as err:
        workload_module.from_dict(doc)
    assert {p.path for p in err.value.problems} == {"jobs[1].model", "jobs[2].world_size"}


@pytest.mark.parametrize("base", ["lucid", "gandiva", "gavel"])
def test_every_variant_finishes_every_job(base):
    w = generate(24, seed=5, rate=60.0, max_hours=0.5)
    results = {v: run_workload(w, base, v).metrics for v in VARIANTS}
    for m in results.values():
        assert m["jobs"] == 24
        assert m["mean_jct_s"] >= m["mean_queuing_s"] >= 0
    assert results["baseline"]["unequal_sets"] == 0
    assert results["baseline"]["search_time_s"] == results["exact"]["search_time_s"] == 0
    assert results["gimbal"]["search_time_s"] > 0
    assert results["aggressive"]["search_time_s"] == 0 and results["aggressive"]["calibrations"] > 0
    # Balanced pairs share every GPU of both jobs, so no worker straggles and LISS has nothing to move.
    assert results["baseline"]["straggler_sets"] == 0
    for m in results.values():
        assert 0 <= m["straggler_sets"] <= m["calibrations"]
        assert m["last_job_queuing_s"] <= m["makespan_s"] and m["last_job_gpus"] >= 1
        assert m["solo_load_s"] == results["baseline"]["solo_load_s"] > 0
    if results["unequal"]["straggler_sets"] == 0:
        assert results["liss"]["makespan_s"] == pytest.approx(results["unequal"]["makespan_s"])


def test_straggler_sets_are_where_liss_acts_and_the_gavel_cause_quotes_the_runs():
    from packgap.paper_figures.gimbal.fig12 import _makespan_cause

    w = generate(24, seed=1, rate=60.0, max_hours=0.5)
    rows = [{"base": "gavel", "variant": v, **run_workload(w, "gavel", v).metrics} for v in ("unequal", "liss")]
    assert rows[0]["straggler_sets"] == 3
    assert rows[1]["mean_jct_s"] < rows[0]["mean_jct_s"]
    cause = _makespan_cause(rows, "liss")
    assert f"waits {rows[0]['last_job_queuing_s']:.0f} s for free GPUs under unequal" in cause
    assert f"{rows[1]['last_job_queuing_s']:.0f} s here" in cause


def test_aggressive_variant_packs_like_gimbal_and_keeps_free_competition():
    """Issue 19.7c: ``aggressive`` isolates GIMBAL's packing policy from its calibration."""
    w = generate(24, seed=5, rate=60.0, max_hours=0.5)
    policies = {v: Policy(w, "lucid", v) for v in ("baseline", "aggressive", "gimbal")}
    jobs = [j.id for j in w.jobs]
    allowed = {v: {(a, b) for a in jobs for b in jobs if p.packable(a, b)} for v, p in policies.items()}
    assert allowed["aggressive"] == allowed["gimbal"] > allowed["baseline"]


def test_philly_builder_on_a_tiny_file(tmp_path):
    lines = ["timestamp,duration,num_gpus,gpu_time,cluster"]
    lines += [f"2017-10-02 09:{m:02d}:00,{60 * (m + 1)}.0,1,{60 * (m + 1)}.0,abc" for m in range(20)]
    lines.append("2017-10-02 08:00:00,500.0,1,500.0,abc")
    lines.append("2017-10-02 09:30:00,30.0,1,30.0,abc")
    (tmp_path / "philly.csv").write_text("\n".join(lines) + "\n")
    w = from_philly(tmp_path / "philly.csv", jobs=10)
    assert len(w.jobs) == 10 and w.jobs[0].arrival == 0.0 and w.jobs[-1].arrival == 540.0
    assert all(j.deadline >= j.arrival + 1.5 * 60 for j in w.jobs)
    with pytest.raises(PackgapError, match="--start"):
        from_philly(tmp_path / "philly.csv", start="yesterday")


def test_openb_builder_on_a_tiny_file(tmp_path):
    head = (
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
    )
    rows = [f"p{i},1,1,{i % 3},1000,,LS,Running,{100 * i},{100 * i + 600},{100 * i}" for i in range(12)]
    rows.append("pending,1,1,1,1000,,LS,Pending,50,,")
    (tmp_path / "pods.csv").write_text("\n".join([head, *rows]) + "\n")
    w = from_openb(tmp_path / "pods.csv", start_s=0)
    assert len(w.jobs) == 8  # 12 pods, 4 without a GPU, the pending one never scheduled


@pytest.mark.traces
def test_philly_trace_follows_table2():
    try:
        path = traces_dir(None) / "philly" / "philly.csv"
    except PackgapError:
        pytest.skip("no trace folder")
    if not path.is_file():
        pytest.skip("philly.csv absent")
    w = from_philly(path)
    assert len(w.jobs) == 150
    large = [j for j in w.jobs if j.model in ("BERT", "LLaMA")]
    assert len(large) == 21
    assert 2.3 < sum(j.world_size for j in w.jobs) / 150 < 3.2


def test_co_located_jobs_finishing_together():
    from packgap.calibration.workload import Workload, WorkloadJob
    from packgap.instances.calibration.jobsets import throughput_model

    twins = tuple(WorkloadJob(f"t{i}", "ResNet-18", 2, 128, 500.0, 0.0, 1e6) for i in range(2))
    w = Workload("twins", "test", 1, 2, 10.0, throughput_model(["ResNet-18"]), twins)
    for variant in ("gimbal", "exact"):
        run = run_workload(w, "lucid", variant).run
        assert run.records["t0"].finish == pytest.approx(run.records["t1"].finish)
        assert run.records["t1"].start == 0.0  # packed at once (balanced co-location), not queued
