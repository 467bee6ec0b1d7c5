"""``fifo`` and ``tiresias`` job for job against the authors' Tiresias simulator (issue 29).

The peer's completion times (``tests/peers/tiresias/``, PROVENANCE.md there: SymbioticLab/
Tiresias at 959f9b0, ported to Python 3, its demotion wake-up fixed) on 14 settings: its own
``60_job.csv`` on 32, 8, 4 and 2 nodes of 4 GPUs, the same trace with times x 10, two seeded
240-job traces and four small cases; ``--scheme=count``, 1 s per iteration, no network
penalty, no preemption cost, so each job is I_j = duration iterations of 1 s on exclusive GPUs.
Thresholds divide by every GPU count (3,200 and 7,200 GPU-s), so the peer's whole-second
clock lands on every demotion packgap computes in continuous time.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from packgap.errors import PackgapError
from packgap.heuristics.sharing.exclusive import fifo
from packgap.heuristics.sharing.tiresias import tiresias
from packgap.sharing import FAMILY, Cluster, Interference, Job, SharingInstance, SharingSolution
from packgap.sharing.solution import from_dict, to_dict
from tests.sharing.helpers import solo_model, tiny

PEER = Path(__file__).parents[1] / "peers" / "tiresias"
SETTINGS = {r["setting"]: r for r in csv.DictReader((PEER / "settings.csv").open())}


@cache
def peer_jobs(setting: str) -> tuple[dict[str, str], ...]:
    return tuple(r for r in csv.DictReader((PEER / "completions.csv").open()) if r["setting"] == setting)


def job_id(k: int) -> str:
    """Ids that sort as the trace does, so FIFO's tie rule (arrival, then id) is the trace order."""
    return f"j{k:04d}"


def instance(setting: str) -> SharingInstance:
    spec = SETTINGS[setting]
    cluster = Cluster(int(spec["nodes"]), int(spec["gpus_per_node"]), 16.0, max_jobs_per_gpu=1)
    jobs = tuple(
        Job(job_id(int(r["job_id"])), float(r["submit_time"]), int(r["num_gpu"]), int(r["duration"]), 1, "unit")
        for r in peer_jobs(setting)
    )
    return SharingInstance(setting, cluster, {"unit": solo_model("unit")}, Interference(1.0), jobs)


def thresholds(setting: str) -> tuple[float, ...]:
    return tuple(float(x) for x in SETTINGS[setting]["thresholds_gpu_s"].split())


def disagreeing(setting: str, solution: SharingSolution, column: str) -> list[str]:
    inst = instance(setting)
    FAMILY.validate(inst, solution)
    ours = {j.id: j.finish for j in solution.jobs}
    rows = peer_jobs(setting)
    return [r["job_id"] for r in rows if ours[job_id(int(r["job_id"]))] != pytest.approx(float(r[column]), rel=1e-6)]


def test_the_peer_data_covers_every_setting() -> None:
    assert len(SETTINGS) == 14
    assert sum(len(peer_jobs(s)) for s in SETTINGS) == 993


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_fifo_and_tiresias_agree_with_the_peer_on_every_job(setting: str) -> None:
    inst = instance(setting)
    assert disagreeing(setting, fifo(inst), "fifo_end") == []
    assert disagreeing(setting, tiresias(inst, thresholds(setting)), "tiresias_end") == []


def test_the_arrival_order_reading_disagrees_with_the_peer() -> None:
    # 60_job.csv on 8 GPUs: re-sorting each queue by arrival preempts later running jobs for
    # earlier waiting ones (the released simulator never does inside a queue).
    setting = "60job-n2g4"
    inst = instance(setting)
    solution = tiresias(inst, thresholds(setting), queue_order="arrival")
    assert len(disagreeing(setting, solution, "tiresias_end")) == 59
    assert sum(len(j.segments) - 1 for j in solution.jobs) > 0
    assert all(len(j.segments) == 1 for j in tiresias(inst, thresholds(setting)).jobs)


def test_demotion_lands_at_limit_minus_service_over_gpus() -> None:
    # Two 8-GPU jobs on 8 GPUs, one threshold 3,250 GPU-s. j0 is demoted at 3,250 / 8 = 406.25 s
    # (the peer's floor((limit - executed) / num_gpu) wake-up would say 761 s) and j1, waiting
    # in the first queue, takes its GPUs; j1 reaches 3,250 GPU-s 406.25 s later and joins the
    # second queue behind the waiting j0, which resumes.
    inst = tiny([(0.0, 8, 2000), (100.0, 8, 2000)], gpus=8)
    solution = tiresias(inst, (3250.0,))
    FAMILY.validate(inst, solution)
    first, second = solution.jobs
    assert [(s.start, s.stop) for s in first.segments] == [(0.0, 406.25), (812.5, None)]
    assert [(s.start, s.stop) for s in second.segments] == [(406.25, 812.5), (2406.25, None)]
    assert (first.finish, second.finish) == (2406.25, 4000.0)


def test_thresholds_must_increase() -> None:
    inst = tiny([(0.0, 1, 10)])
    for bad in ((7200.0, 3250.0), (3250.0, 3250.0), (0.0,)):
        with pytest.raises(PackgapError, match="thresholds"):
            tiresias(inst, bad)
    with pytest.raises(PackgapError, match="queue_order"):
        tiresias(inst, queue_order="fifo")
    with pytest.raises(PackgapError, match="resume_overhead_s"):
        tiresias(inst, resume_overhead_s=-1.0)


def test_a_resume_pays_its_overhead_and_waits_count_as_not_running() -> None:
    # j0 runs 4,000 s, is preempted by the fresh j1 (10 s), resumes at 4,010 s.
    inst = tiny([(0.0, 1, 5000), (4000.0, 1, 10)], gpus=1)
    free, paid = (tiresias(inst, (3250.0,), resume_overhead_s=s) for s in (0.0, 120.0))
    assert (free.jobs[0].finish, paid.jobs[0].finish) == (5010.0, 5130.0)
    assert from_dict(to_dict(paid)) == paid and "resume_overhead_s" not in to_dict(free)
    metrics = FAMILY.evaluate(inst, paid).metrics
    assert metrics["avg_queuing_s"] == 0.0
    assert metrics["avg_not_running_s"] == pytest.approx(5.0)
    assert metrics["small_avg_not_running_s"] == pytest.approx(5.0)


JOBS = st.lists(st.tuples(st.integers(0, 3000), st.sampled_from([1, 2, 4, 8]), st.integers(1, 3000)), max_size=12)


def drawn(jobs: list[tuple[int, int, int]]) -> SharingInstance:
    return SharingInstance(
        "drawn",
        Cluster(2, 4, 16.0, max_jobs_per_gpu=1),
        {"unit": solo_model("unit")},
        Interference(1.0),
        tuple(Job(job_id(k), float(a), g, n, 1, "unit") for k, (a, g, n) in enumerate(sorted(jobs))),
    )


@given(JOBS)
def test_below_every_threshold_tiresias_is_fifo_with_backfill(jobs: list[tuple[int, int, int]]) -> None:
    # With a threshold no job reaches, every job stays in the first queue, running jobs keep
    # their place ahead of waiting ones, and the greedy pass backfills in arrival order.
    inst = drawn(jobs)
    released = tiresias(inst, (1e9,))
    assert all(len(j.segments) == 1 for j in released.jobs)
    assert [j.finish for j in released.jobs] == [j.finish for j in fifo(inst, backfill=True).jobs]


@given(
    JOBS,
    st.lists(st.integers(100, 20000), min_size=1, max_size=4, unique=True),
    st.sampled_from(["released", "arrival"]),
)
def test_every_reading_gives_valid_schedules(jobs: list[tuple[int, int, int]], limits: list[int], order: str) -> None:
    inst = drawn(jobs)
    solution = tiresias(inst, tuple(float(x) for x in sorted(limits)), order, resume_overhead_s=30.0)
    FAMILY.validate(inst, solution)
