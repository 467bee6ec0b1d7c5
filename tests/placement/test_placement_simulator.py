from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.analysis.placement.replay import replay, replay_rounds
from packgap.analysis.placement.round_gaps import round_gaps
from packgap.analysis.placement.runs import exact_policy
from packgap.analysis.placement.simulate import metrics, run
from packgap.errors import PackgapError, UnknownNameError
from packgap.heuristics.placement import POLICIES, cluster_policy
from packgap.heuristics.placement.artifact import artifact_bins
from packgap.heuristics.placement.schedulers import SCHEDULERS, fifo, las
from packgap.instances.placement.sim import artifact_extra_jobs, cluster_from_table, sim_jobs
from packgap.instances.placement.synergy import synergy_trace
from packgap.instances.placement.traces import read_gpu_table, read_workload
from packgap.placement import FAMILY
from packgap.placement.simulator import Cluster, SimJob, simulate
from packgap.solvers.outcome import SolveOptions
from tests.traces import trace_path

TRACES = trace_path("pal")


def _job(jid: str, gpus: int, submit: float, work: float, cls: str = "A") -> SimJob:
    return SimJob(jid, gpus, submit, work, "m", cls, 1.0)


def test_hand_example_fifo_blocking_and_slowdown() -> None:
    """1 node x 2 GPUs (scores 1.0, 2.0), 100 s rounds. a (1 GPU, 250 its) runs 3 rounds and
    finishes at 300; b (2 GPUs, 100 its, submitted at 50) waits behind it, then runs at the
    slower GPU's pace (50 its/round) and finishes at 500."""
    cluster = Cluster(1, 2, ("A",), {"A": (1.0, 2.0)}, 1.5)
    jobs = [_job("a", 1, 0.0, 250.0), _job("b", 2, 50.0, 100.0)]
    res = simulate(cluster, jobs, fifo, POLICIES["packed-sticky"].heuristic, sticky=True, round_length=100.0)
    assert res.finish == {"a": 300.0, "b": 500.0}
    assert res.jct == {"a": 300.0, "b": 450.0}
    assert res.wait == {"a": 0.0, "b": 250.0}
    assert res.utilisation == (0.5, 0.5, 0.5, 1.0, 1.0)
    assert res.makespan == 500.0 and res.mean_jct == 375.0


def test_locality_penalty_when_spread() -> None:
    cluster = Cluster(2, 1, ("A",), {"A": (1.0, 1.0)}, 1.5)
    res = simulate(
        cluster, [_job("a", 2, 0.0, 200.0)], fifo, POLICIES["pal"].heuristic, sticky=False, round_length=100.0
    )
    assert res.finish == {"a": 300.0}  # 100 / 1.5 = 66.7 iterations a round: 3 rounds


def test_las_preempts_and_sticky_jobs_keep_gpus() -> None:
    cluster = Cluster(1, 2, ("A",), {"A": (1.0, 1.0)}, 1.5)
    jobs = [_job("long", 2, 0.0, 1000.0), _job("short", 2, 150.0, 100.0)]
    res = simulate(
        cluster,
        jobs,
        lambda q: las(q, threshold=300.0),
        POLICIES["packed-sticky"].heuristic,
        sticky=True,
        round_length=100.0,
    )
    # long attains 400 GPU-s by t=200, short (0 attained) overtakes it for one round
    assert res.finish["short"] == 300.0
    assert res.finish["long"] == 1100.0


def _observed(cluster: Cluster, jobs: list[SimJob], scheduler: Any, policy: Any, repeats: bool) -> tuple[Any, ...]:
    """The run and every round it placed (jobs and allocations), with or without repeated rounds taken over."""
    seen: list[tuple[Any, Any]] = []
    res = simulate(
        cluster,
        jobs,
        scheduler,
        policy.place,
        sticky=policy.sticky,
        round_length=100.0,
        seed=3,
        observe=lambda i, s: seen.append((i.jobs, i.unavailable, s.allocations)),
        repeats=repeats,
    )
    return res, seen


def test_every_policy_and_scheduler_runs_a_trace(tmp_path: Path) -> None:
    cluster = Cluster(2, 4, ("A", "B"), {"A": (0.9, 1.0, 1.1, 2.5, 0.95, 1.0, 1.0, 1.2), "B": (1.0,) * 8}, 1.7)
    jobs = [_job(str(i), g, 100.0 * i, 500.0 + 100 * i, "AB"[i % 2]) for i, g in enumerate((1, 4, 2, 8, 3, 1, 6))]
    for name in POLICIES:
        policy = cluster_policy(name, cluster)
        for scheduler in SCHEDULERS.values():
            res = simulate(cluster, jobs, scheduler, policy.place, sticky=policy.sticky, round_length=100.0, seed=3)
            assert set(res.jct) == {j.id for j in jobs}
            assert all(0 <= u <= 1 for u in res.utilisation)
            if policy.repeats:
                assert _observed(cluster, jobs, scheduler, policy, True) == _observed(
                    cluster, jobs, scheduler, policy, False
                ), name
    with pytest.raises(PackgapError, match="more GPUs than the cluster"):
        simulate(cluster, [_job("x", 9, 0.0, 1.0)], fifo, POLICIES["pal"].heuristic, sticky=False)
    with pytest.raises(PackgapError, match="no tracked job"):
        simulate(cluster, [], fifo, POLICIES["pal"].heuristic, sticky=False)


def test_artifact_inputs(tmp_path: Path) -> None:
    w = tmp_path / "workload-1.csv"
    w.write_text("job_id,num_gpus,submit_time,duration,model\n0,1,98,1481.0,vgg19\n1,12,115,4037.0,DCGAN\n")
    jobs = sim_jobs(read_workload(w))
    assert (jobs[1].job_class, jobs[1].iter_time) == ("B", 0.0469266931)
    extras = artifact_extra_jobs(jobs, 3)
    assert [e.id for e in extras] == ["2", "3", "4"] and not extras[0].tracked
    assert extras[1].model == "DCGAN" and extras[0].submit_time > 115


@pytest.mark.traces
@pytest.mark.skipif(not TRACES.is_dir(), reason="../shared/traces/pal not present")
def test_workload1_artifact_extra_arrivals_and_pal_beats_tiresias() -> None:
    jobs = sim_jobs(read_workload(TRACES / "sia_philly_workloads" / "workload-1.csv"))
    extras = artifact_extra_jobs(jobs, 3)
    assert [e.submit_time for e in extras] == [18130.0, 21515.0, 24113.0]
    cluster = cluster_from_table(read_gpu_table(TRACES / "blox-sim-inputs" / "gpu_perfvar_64gpu_seed42.csv"))
    mean = {}
    for name in ("packed-sticky", "pal"):
        policy = cluster_policy(name, cluster)
        res = simulate(cluster, jobs, fifo, policy.place, sticky=policy.sticky, round_length=360.0)
        mean[name] = res.mean_jct
    assert mean["pal"] < mean["packed-sticky"]


def test_exact_policy_and_round_gaps() -> None:
    cluster = Cluster(
        2,
        4,
        ("A", "B"),
        {"A": (0.9, 1.0, 1.1, 2.5, 0.95, 1.0, 1.0, 1.2), "B": (1.0, 1.1, 1.0, 1.0, 1.0, 1.3, 1.0, 1.0)},
        1.7,
    )
    jobs = [_job(str(i), g, 100.0 * i, 300.0 + 100 * i, "AB"[i % 2]) for i, g in enumerate((1, 4, 2, 3, 1, 2))]
    options = SolveOptions(time_limit=20)
    exact = simulate(cluster, jobs, fifo, exact_policy(options), sticky=False, round_length=100.0)
    assert set(exact.jct) == {j.id for j in jobs}
    _, gaps = round_gaps(
        cluster, jobs, fifo, cluster_policy("pal", cluster).place, sticky=False, options=options, round_length=100.0
    )
    assert gaps and all(g.exact is not None and g.objective >= g.exact - 1e-9 for g in gaps)
    assert all(g.primal_gap is not None and g.primal_gap >= 0 for g in gaps)


@pytest.mark.traces
@pytest.mark.skipif(not TRACES.is_dir(), reason="../shared/traces/pal not present")
def test_artifact_bins_match_the_provenance_table() -> None:
    table = read_gpu_table(TRACES / "blox-sim-inputs" / "gpu_perfvar_64gpu_seed42.csv")
    a = artifact_bins("A", table.factors["A"])
    assert a.k == 3 and a.outliers == (35,)
    assert [round(v, 4) for v in a.centroids] == [0.9128, 1.0, 2.5946]
    mid = [g for g in range(64) if a.scores[g] == a.centroids[1]]
    assert mid == [2, 3, 9, 21, 29, 40, 41, 43, 50, 51, 55, 61]
    d = artifact_bins("D", table.factors["D"])
    assert [g for g in range(64) if d.scores[g] == d.centroids[0]] == [5, 8, 13, 24, 49, 51, 56]


@pytest.mark.traces
@pytest.mark.skipif(not TRACES.is_dir(), reason="../shared/traces/pal not present")
def test_replay_extras_cannot_change_packed_results() -> None:
    """PROVENANCE.md section 1: the extra jobs always come last in FIFO order, so they do
    not change Packed-S or Packed-NS finish times."""
    for policy in ("packed-sticky", "packed-non-sticky"):
        assert replay(TRACES, 1, policy).finish == replay(TRACES, 1, policy, extras=0).finish
    pal_run = replay(TRACES, 1, "pal")
    assert len(pal_run.finish) == 160
    rounds = replay_rounds(TRACES, 2, every=50)
    assert rounds and all(r.num_gpus == 64 and r.jobs for r in rounds)
    FAMILY.validate(rounds[0], POLICIES["pal"].heuristic(rounds[0], 0))


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 8), st.integers(0, 2000), st.integers(1, 900), st.sampled_from("AB")),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from(sorted(POLICIES)),
    st.sampled_from(sorted(SCHEDULERS)),
)
def test_every_job_finishes_no_faster_than_its_best_gpus(rows, policy, scheduler) -> None:
    scores = {"A": (0.9, 1.0, 1.1, 2.5, 0.95, 1.0, 1.0, 1.2), "B": (1.0, 1.1, 1.0, 1.0, 1.0, 1.3, 1.0, 1.0)}
    cluster = Cluster(2, 4, ("A", "B"), scores, 1.7)
    jobs = [_job(str(i), g, float(t), float(w), c) for i, (g, t, w, c) in enumerate(rows)]
    chosen = cluster_policy(policy, cluster)
    res = simulate(cluster, jobs, SCHEDULERS[scheduler], chosen.place, sticky=chosen.sticky, round_length=100.0)
    for job in jobs:
        fastest = sorted(scores[job.job_class])[job.gpus - 1]
        rounds = math.ceil(job.work * fastest / 100.0 - 1e-9)
        first_boundary = math.ceil(job.submit_time / 100.0) * 100.0
        assert res.finish[job.id] >= first_boundary + rounds * 100.0
        assert res.finish[job.id] % 100.0 == 0
        assert res.wait[job.id] >= first_boundary - job.submit_time - 1e-9
    assert all(0 <= u <= 1 for u in res.utilisation)


def test_run_by_name_and_metrics() -> None:
    cluster = Cluster(2, 4, ("A", "B", "C"), {c: (1.0,) * 8 for c in "ABC"}, 1.7)
    jobs = synergy_trace(30, 20.0, seed=1, median_work_s=600.0)
    row = metrics(run(cluster, jobs, "srtf", "pal", round_length=300.0, traversal="all"))
    assert row["jobs"] == 30 and row["p99_jct_s"] >= row["mean_jct_s"] > 0
    assert 0 < row["mean_utilisation"] <= 1
    with pytest.raises(UnknownNameError):
        run(cluster, jobs, "edf")
