"""The engine's array bookkeeping is the per-job loop it replaced, bit for bit; change-only
decisions (``Decision.stop``) run the same as full ones; ``State.columns`` mirror the jobs."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.engine import WORK_TOL, Decision, EngineError, EngineJob, Record, Segment, State, simulate


@dataclass
class Ref:
    job: EngineJob
    done: float = 0.0
    rate: float = 0.0
    charged: float = 0.0
    running_s: float = 0.0
    start: float | None = None
    finish: float | None = None
    preemptions: int = 0
    segments: list[Segment] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.job.id

    @property
    def remaining(self) -> float:
        return max(0.0, self.job.work + self.charged - self.done)


def reference(jobs: list[EngineJob], policy: Callable[[float, list[Ref]], Decision]) -> dict[str, Ref]:
    """The engine one job at a time (its loop before the arrays), as the oracle."""
    refs = {j.id: Ref(j) for j in jobs}
    pending = sorted(jobs, key=lambda j: j.arrival)
    active: dict[str, Ref] = {}
    running: dict[str, Ref] = {}
    now, nxt = 0.0, 0
    while nxt < len(pending) or active:
        if not active:
            now = max(now, pending[nxt].arrival)
        while nxt < len(pending) and pending[nxt].arrival <= now:
            active[pending[nxt].id] = refs[pending[nxt].id]
            nxt += 1
        decision = policy(now, list(active.values()))
        for jid, extra in decision.charge.items():
            active[jid].charged += extra
        for jid in [jid for jid in running if jid not in decision.rates]:
            running.pop(jid).rate = 0.0
            refs[jid].preemptions += 1
        for jid, rate in decision.rates.items():
            p = active[jid]
            p.start = now if p.start is None else p.start
            p.rate = rate
            running[jid] = p
        step = min((p.remaining / p.rate for p in running.values()), default=math.inf)
        end = now + step
        if nxt < len(pending) and pending[nxt].arrival - now <= step:
            step, end = pending[nxt].arrival - now, pending[nxt].arrival
        wake = decision.wake_at
        if wake is not None and wake > now and wake - now <= step:
            step, end = wake - now, wake
        for p in list(running.values()):
            last = p.segments[-1] if p.segments else None
            if last is not None and last.end == now and last.rate == p.rate:
                p.segments[-1] = Segment(last.start, end, p.rate)
            else:
                p.segments.append(Segment(now, end, p.rate))
            p.running_s += step
            p.done += p.rate * step
            work = p.job.work + p.charged
            if p.remaining <= WORK_TOL * work or p.remaining / p.rate <= WORK_TOL * max(1.0, end):
                p.done, p.finish, p.rate = work, end, 0.0
                del active[p.id], running[p.id]
        now = end
    return refs


def chooser(seed: int) -> Callable[[float, list], Decision]:
    """A deterministic policy of the time and the active jobs' remaining work: runs a subset
    at varying rates, preempts, charges restarts and asks for wake-ups."""

    def policy(now: float, active: list) -> Decision:
        rng = random.Random(hash((seed, now, tuple(round(p.remaining, 6) for p in active))))
        run = [p for p in active if rng.random() < 0.7] or active[:1]
        rates = {p.id: rng.choice([0.5, 1.0, 1.0 / 3.0, 2.0]) for p in run}
        charge = {p.id: 0.25 for p in run if p.preemptions and rng.random() < 0.5}
        wake = now + rng.uniform(0.1, 3.0) if rng.random() < 0.3 else None
        return Decision(rates, charge, wake)

    return policy


def as_changes(policy: Callable[[float, list], Decision]) -> Callable[[State], Decision]:
    """The same policy answering with only new or changed rates and the jobs that stop."""
    running: dict[str, float] = {}

    def changes(state: State) -> Decision:
        for jid in state.finished:
            running.pop(jid, None)
        full = policy(state.now, list(state.active))
        stop = [jid for jid in running if jid not in full.rates]
        rates = {jid: r for jid, r in full.rates.items() if running.get(jid) != r}
        running.clear()
        running.update(full.rates)
        return Decision(rates, full.charge, full.wake_at, stop=stop)

    return changes


def same(record: Record, ref: Ref) -> bool:
    return (record.start, record.finish, record.charged, record.preemptions, list(record.segments)) == (
        ref.start,
        ref.finish,
        ref.charged,
        ref.preemptions,
        ref.segments,
    )


JOBS = st.lists(
    st.tuples(st.floats(0, 20, allow_nan=False), st.floats(0.1, 10, allow_nan=False)), min_size=1, max_size=8
)


@settings(max_examples=60, deadline=None)
@given(JOBS, st.integers(0, 10**6))
def test_engine_is_the_per_job_loop_bit_for_bit(spec: list[tuple[float, float]], seed: int) -> None:
    jobs = [EngineJob(f"j{i}", a, w) for i, (a, w) in enumerate(spec)]
    refs = reference(jobs, chooser(seed))
    full = simulate(jobs, lambda s: chooser(seed)(s.now, list(s.active)))
    changed = simulate(jobs, as_changes(chooser(seed)))
    for j in jobs:
        assert same(full.records[j.id], refs[j.id]), j.id
        assert full.records[j.id] == changed.records[j.id], j.id
    assert full.events == changed.events


def test_columns_mirror_every_job_and_are_read_only() -> None:
    jobs = [EngineJob("a", 0.0, 4.0), EngineJob("b", 1.0, 2.0), EngineJob("c", 1.5, 3.0)]
    seen = []

    def policy(state: State) -> Decision:
        c = state.columns
        for k, j in enumerate(jobs):
            p = state.progress[j.id]
            assert (c.done[k], c.work[k], c.running_s[k]) == (p.done, p.work, p.running_s)
            assert max(0.0, c.work[k] - c.done[k]) == p.remaining
        with pytest.raises(ValueError):
            c.done[0] = 1.0
        seen.append(state.now)
        return Decision({p.id: 1.0 for p in state.active}, charge={"b": 0.5} if state.now == 1.0 else {})

    simulate(jobs, policy)
    assert seen[:3] == [0.0, 1.0, 1.5]


def test_running_segments_end_now_while_a_job_runs() -> None:
    def policy(state: State) -> Decision:
        for p in state.active:
            if p.rate > 0:
                assert p.segments[-1].end == state.now
        return Decision({p.id: 1.0 + state.now for p in state.active})

    run = simulate([EngineJob("a", 0.0, 5.0), EngineJob("b", 1.0, 1.0)], policy)
    assert [s.rate for s in run.records["a"].segments] == [1.0, 2.0, pytest.approx(1.0 + run.records["b"].finish)]


@pytest.mark.parametrize(
    ("decision", "message"),
    [
        (Decision({}, stop=["b"]), "not running"),
        (Decision({"a": 2.0}, stop=["a"]), "also gets a rate"),
    ],
)
def test_impossible_changes_are_errors(decision: Decision, message: str) -> None:
    def policy(state: State) -> Decision:
        return Decision({"a": 1.0}) if state.now == 0 else decision

    with pytest.raises(EngineError, match=message):
        simulate([EngineJob("a", 0.0, 5.0), EngineJob("b", 1.0, 1.0)], policy)


def test_an_unchanged_job_keeps_running_at_its_rate() -> None:
    def policy(state: State) -> Decision:
        if state.now == 0:
            return Decision({"a": 2.0})
        return Decision({"b": 1.0} if "b" in state.arrived else {}, stop=[])

    run = simulate([EngineJob("a", 0.0, 10.0), EngineJob("b", 1.0, 1.0)], policy)
    assert run.records["a"].segments == (Segment(0.0, 5.0, 2.0),)
    assert run.records["b"].finish == 2.0
    assert np.isclose(run.makespan, 5.0)
