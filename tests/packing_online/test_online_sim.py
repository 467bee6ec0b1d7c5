"""The online simulator (packgap.packing.online): hand-computed runs, invariants, determinism."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.analysis.packing.online import (
    overtime_series,
    pipeline_replan,
    report_to_dict,
    simulate_pipeline,
    snapshot,
)
from packgap.errors import PackgapError
from packgap.gpus import GpuType
from packgap.instances.packing.generator import generate
from packgap.jsonio import dumps
from packgap.packing import FAMILY, Job, PackingInstance
from packgap.packing.online import Start, View, simulate
from tests.packing.strategies import instances
from tests.packing_online.cases import ONE_SECOND, three_jobs


def fifo(view: View) -> list[Start]:
    """Start the earliest waiting job on the first free GPU of the first type with one."""
    for gpu_type, free in zip(view.queue.gpu_types, view.free, strict=True):
        if free and view.queue.jobs:
            return [Start((view.queue.jobs[0].id,), gpu_type.name, (free[0],))]
    return []


def jct(instance: PackingInstance, run) -> dict[str, float]:  # type: ignore[no-untyped-def]
    arrival = {j.id: j.arrival for j in instance.jobs}
    return {o.job: o.completion - arrival[o.job] for o in run.jobs}


def test_hand_example_periodic_rounds() -> None:
    # Rounds at 0, 60, 120, 180: j1 runs [0, 100]; j2 waits for the round at 120 and runs
    # [120, 170]; j3 for the round at 180 and runs [180, 200].
    inst = three_jobs()
    run = simulate(inst, fifo, interval_s=60.0)
    assert jct(inst, run) == {"j1": 100.0, "j2": 160.0, "j3": 170.0}
    assert run.queue == ((0.0, 0), (10.0, 1), (30.0, 2), (120.0, 1), (180.0, 0))
    assert run.running == ((0.0, 1), (100.0, 0), (120.0, 1), (170.0, 0), (180.0, 1), (200.0, 0))
    assert FAMILY.evaluate(inst, run.solution).objective == pytest.approx(430.0 / 3)


def test_hand_example_event_driven() -> None:
    # Re-planning at every completion: j2 runs [100, 150], j3 runs [150, 170].
    inst = three_jobs()
    run = simulate(inst, fifo, interval_s=None, on_events=True)
    assert jct(inst, run) == {"j1": 100.0, "j2": 140.0, "j3": 140.0}
    assert run.replans == 3


def test_pipeline_reproduces_the_hand_example() -> None:
    inst = three_jobs()
    report = simulate_pipeline(inst, "none+fifo", interval_s=60.0)
    assert jct(inst, report.run) == {"j1": 100.0, "j2": 160.0, "j3": 170.0}
    assert report.metrics["mean_jct_s"] == pytest.approx(430.0 / 3)
    assert report.metrics["max_queue"] == 2.0
    # Waiting: 1 job on [10, 30), 2 on [30, 120), 1 on [120, 180) over a 200 s makespan.
    assert report.metrics["mean_queue"] == pytest.approx((20 + 180 + 60) / 200)


def test_policy_mistakes_fail_loudly() -> None:
    inst = three_jobs()
    with pytest.raises(PackgapError, match="not all distinct and free"):
        simulate(inst, lambda v: [Start((j.id,), "A", (0,)) for j in v.queue.jobs], on_events=True)
    with pytest.raises(PackgapError, match="is not waiting"):
        simulate(inst, lambda v: [Start(("ghost",), "A", (0,))])
    with pytest.raises(PackgapError, match="idle cluster"):
        simulate(inst, lambda v: [])
    with pytest.raises(PackgapError, match="interval_s"):
        simulate(inst, fifo, interval_s=None)


def checked(policy):  # type: ignore[no-untyped-def]
    """Wrap a policy so every view it sees is checked for preemption and double booking."""
    seen: dict[tuple[str, ...], tuple[str, tuple[int, ...], float, float]] = {}

    def replan(view: View) -> list[Start]:
        busy = {(g.gpu_type, x) for g in view.running for x in g.gpus}
        idle = {(t.name, x) for t, free in zip(view.queue.gpu_types, view.free, strict=True) for x in free}
        assert not busy & idle
        assert len(busy) + len(idle) == sum(t.count for t in view.queue.gpu_types)
        running = {g.jobs: (g.gpu_type, g.gpus, g.start, g.end) for g in view.running}
        for jobs, (name, gpus, start, end) in seen.items():
            if end > view.now:  # not over yet: still running, unchanged
                assert running[jobs] == (name, gpus, start, end)
        seen.update(running)
        assert all(j.arrival <= view.now for j in view.queue.jobs)
        return list(policy(view))

    return replan


@settings(max_examples=20, deadline=None)
@given(
    instances(max_jobs=6),
    st.sampled_from(["dab+mchp", "blossom+edf", "none+fifo"]),
    st.sampled_from([(30.0, False), (None, True), (45.0, True)]),
)
def test_online_runs_validate_and_never_preempt(
    inst: PackingInstance, pipeline: str, timing: tuple[float | None, bool]
) -> None:
    policy, _ = pipeline_replan(pipeline)
    run = simulate(inst, checked(policy), interval_s=timing[0], on_events=timing[1])
    FAMILY.validate(inst, run.solution)
    arrival = {j.id: j.arrival for j in inst.jobs}
    assert sorted(o.job for o in run.jobs) == sorted(arrival)
    assert all(o.start >= arrival[o.job] for o in run.jobs)
    assert run.queue[-1][1] == 0 and run.running[-1][1] == 0


def test_same_seed_same_bytes() -> None:
    first = dumps(report_to_dict(simulate_pipeline(generate(25, seed=3), "dab+mchp")))
    second = dumps(report_to_dict(simulate_pipeline(generate(25, seed=3), "dab+mchp")))
    assert first == second


def test_overtime_series_of_the_hand_example() -> None:
    # j2 (due 110) completes at 170 and j3 (due 130) at 200: overtime on [110, 170) and [130, 200).
    inst = three_jobs()
    due = {"j1": 500.0, "j2": 110.0, "j3": 130.0}
    inst = replace(inst, jobs=tuple(replace(j, deadline=due[j.id]) for j in inst.jobs))
    report = simulate_pipeline(inst, "none+fifo", interval_s=60.0)
    assert overtime_series(inst, report.run) == ((0.0, 0), (110.0, 1), (130.0, 2), (170.0, 1), (200.0, 0))
    assert report.metrics["max_overtime"] == 2.0
    assert report.metrics["late_jobs"] == 2.0


def test_snapshot_keeps_free_gpus_and_counts_deadlines_from_now() -> None:
    profiles = (ONE_SECOND, ONE_SECOND)
    jobs = (
        Job("late", 0.0, 50.0, 1, 10, "m", "before_forward", profiles),
        Job("due", 20.0, 300.0, 1, 10, "m", "before_forward", profiles),
        Job("wide", 30.0, 900.0, 2, 10, "m", "before_forward", profiles),
    )
    queue = PackingInstance("q", (GpuType("A", 2), GpuType("B", 3)), jobs)
    snap = snapshot(View(100.0, queue, ((), (2,)), ()))
    assert snap is not None
    inst, free = snap
    assert [(t.name, t.count) for t in inst.gpu_types] == [("B", 1)] and free == [(2,)]
    assert [(j.id, j.arrival, j.deadline, len(j.profiles)) for j in inst.jobs] == [
        ("late", 0.0, 0.0, 1),
        ("due", 0.0, 200.0, 1),
    ]
    assert snapshot(View(100.0, replace(queue, jobs=jobs[2:]), ((), (2,)), ())) is None


def test_run_document_round_trips_through_the_family() -> None:
    inst = generate(12, seed=5)
    report = simulate_pipeline(inst, "blossom+mchp", interval_s=None, on_events=True)
    document = json.loads(dumps(report_to_dict(report)))
    solution = FAMILY.solution_from_dict(document["run"]["solution"])
    FAMILY.validate(inst, solution)
    assert FAMILY.evaluate(inst, solution).metrics["mean_jct_s"] == pytest.approx(report.metrics["mean_jct_s"])


def test_a_heterogeneity_blind_pipeline_runs_when_its_type_is_busy() -> None:
    """CUCKOO-Homo online: every GPU seen as an RTX4090 even in rounds where all RTX4090s are
    busy (the snapshot keeps only types with free GPUs; the blind view comes first)."""
    from packgap.instances.packing.generator import generate

    instance = generate(40, seed=2)
    report = simulate_pipeline(instance, "dab+mchp", params={"homogeneous_as": "RTX4090"})
    assert len(report.run.jobs) == 40
    assert report.params["homogeneous_as"] == "RTX4090"
