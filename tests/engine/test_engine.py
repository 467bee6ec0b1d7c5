"""The generic progress engine: closed forms, conservation of work, preemption, errors."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap import engine
from packgap.engine import Decision, EngineError, EngineJob, State, simulate


def fifo_one_server(state: State) -> Decision:
    return Decision({state.active[0].id: 1.0})


def processor_sharing(state: State) -> Decision:
    return Decision({p.id: 1.0 / len(state.active) for p in state.active})


def test_module_example_runs() -> None:
    assert doctest.testmod(engine).failed == 0


def test_one_job_finishes_at_work_over_rate() -> None:
    run = simulate([EngineJob("a", 3.0, 10.0)], lambda s: Decision({"a": 4.0}))
    rec = run.records["a"]
    assert (rec.start, rec.finish, rec.completion, rec.queuing) == (3.0, 5.5, 2.5, 0.0)
    assert rec.segments == (engine.Segment(3.0, 5.5, 4.0),)


def test_processor_sharing_of_equal_jobs_finishes_together() -> None:
    run = simulate([EngineJob(str(i), 0.0, 2.0) for i in range(4)], processor_sharing)
    assert [r.finish for r in run.records.values()] == pytest.approx([8.0] * 4)
    assert run.makespan == pytest.approx(8.0)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 50, allow_nan=False), st.floats(0.1, 20, allow_nan=False)),
        min_size=1,
        max_size=12,
    )
)
def test_fifo_matches_closed_form(spec: list[tuple[float, float]]) -> None:
    jobs = [EngineJob(f"j{i}", a, w) for i, (a, w) in enumerate(spec)]
    run = simulate(jobs, fifo_one_server)
    clock = 0.0
    for j in sorted(jobs, key=lambda j: j.arrival):
        clock = max(clock, j.arrival) + j.work
        assert run.records[j.id].finish == pytest.approx(clock, rel=1e-9, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 30, allow_nan=False), st.floats(0.1, 20, allow_nan=False)),
        min_size=1,
        max_size=10,
    ),
    st.floats(0.0, 2.0),
)
def test_work_is_conserved_with_preemption_and_charges(spec: list[tuple[float, float]], overhead: float) -> None:
    """Shortest-remaining-first with a restart charge: segments integrate to work + charges."""
    stopped: set[str] = set()

    def srpt(state: State) -> Decision:
        first = min(state.active, key=lambda p: (p.remaining, p.id))
        charge = {first.id: overhead} if first.id in stopped else {}
        stopped.discard(first.id)
        stopped.update(p.id for p in state.active if p.rate > 0 and p.id != first.id)
        return Decision({first.id: 1.0}, charge=charge)

    run = simulate([EngineJob(f"j{i}", a, w) for i, (a, w) in enumerate(spec)], srpt)
    for rec in run.records.values():
        ran = sum((s.end - s.start) * s.rate for s in rec.segments)
        assert ran == pytest.approx(rec.job.work + rec.charged, rel=1e-9, abs=1e-9)
        assert rec.start >= rec.job.arrival
        assert rec.finish > rec.start
        busy = [(s.start, s.end) for s in rec.segments]
        assert busy == sorted(busy)
    if overhead == 0:
        assert all(r.charged == 0 for r in run.records.values())


def test_preempted_job_keeps_its_progress() -> None:
    run = simulate([EngineJob("a", 0.0, 10.0), EngineJob("b", 2.0, 5.0)], lambda s: Decision({s.active[-1].id: 1.0}))
    a = run.records["a"]
    assert a.preemptions == 1
    assert a.finish == pytest.approx(15.0)
    assert [(s.start, s.end) for s in a.segments] == [(0.0, 2.0), (7.0, 15.0)]


def test_wake_up_starts_a_job_later() -> None:
    def later(state: State) -> Decision:
        if state.now < 5.0:
            return Decision({}, wake_at=5.0)
        return Decision({"a": 1.0})

    run = simulate([EngineJob("a", 0.0, 1.0)], later)
    assert (run.records["a"].start, run.records["a"].finish, run.records["a"].queuing) == (5.0, 6.0, 5.0)
    assert run.events == 2


def test_state_names_the_causes_of_each_event() -> None:
    seen: list[tuple[float, tuple[str, ...], tuple[str, ...], bool]] = []

    def policy(state: State) -> Decision:
        seen.append((state.now, state.arrived, state.finished, state.woken))
        return Decision({p.id: 1.0 for p in state.active}, wake_at=state.now + 0.5 if state.now == 0 else None)

    simulate([EngineJob("a", 0.0, 1.0), EngineJob("b", 0.0, 2.0)], policy)
    assert seen == [(0.0, ("a", "b"), (), False), (0.5, (), (), True), (1.0, (), ("a",), False)]


@pytest.mark.parametrize(
    ("decision", "message"),
    [
        (Decision({"zz": 1.0}), "unknown"),
        (Decision({"b": 1.0}), "not active"),
        (Decision({"a": -1.0}), "rates must be finite"),
        (Decision({"a": float("inf")}), "rates must be finite"),
        (Decision({"a": 1.0}, charge={"a": -2.0}), "charge"),
        (Decision({}), "wait with nothing running"),
    ],
)
def test_impossible_decisions_are_errors(decision: Decision, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        simulate([EngineJob("a", 0.0, 1.0), EngineJob("b", 9.0, 1.0)], lambda s: decision)


@pytest.mark.parametrize(
    ("jobs", "message"),
    [
        ([EngineJob("a", 0.0, 1.0), EngineJob("a", 1.0, 1.0)], "twice"),
        ([EngineJob("a", -1.0, 1.0)], "arrival"),
        ([EngineJob("a", 0.0, 0.0)], "work"),
    ],
)
def test_bad_jobs_are_errors(jobs: list[EngineJob], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        simulate(jobs, fifo_one_server)


def test_no_jobs_is_an_empty_run() -> None:
    run = simulate([], fifo_one_server)
    assert run.records == {} and run.events == 0 and run.makespan == 0.0
