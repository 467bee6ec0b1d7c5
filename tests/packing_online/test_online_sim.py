"""The online simulator (packgap.packing.online): hand-computed runs, invariants, determinism."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.online import pipeline_replan, report_to_dict, simulate_pipeline
from instances.packing import generate
from packgap.errors import PackgapError
from packgap.jsonio import dumps
from packgap.packing import FAMILY, Job, PackingInstance
from packgap.packing.interleave import StageProfile
from packgap.packing.online import Start, View, simulate
from packgap.planning import GpuType
from tests.packing.strategies import instances

#: One second per iteration under Muri-P (S + F + B + C = 1000 ms).
ONE_SECOND = StageProfile(0.0, 500.0, 500.0, 0.0)


def three_jobs() -> PackingInstance:
    """One GPU; jobs of 100 s, 50 s and 20 s arriving at 0, 10 and 30 s."""
    jobs = tuple(
        Job(jid, arrival, arrival + 500.0, 1, iterations, "m", "before_forward", (ONE_SECOND,))
        for jid, arrival, iterations in (("j1", 0.0, 100), ("j2", 10.0, 50), ("j3", 30.0, 20))
    )
    return PackingInstance("three", (GpuType("A", 1),), jobs, objective="mean-jct", interleaving="muri-p")


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
@given(instances(max_jobs=6), st.sampled_from(["dab+mchp", "blossom+edf", "none+fifo"]),
       st.sampled_from([(30.0, False), (None, True), (45.0, True)]))
def test_online_runs_validate_and_never_preempt(inst: PackingInstance, pipeline: str,
                                                 timing: tuple[float | None, bool]) -> None:
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
