"""An event-driven progress engine: jobs with an amount of work, rates chosen by a policy.

Every job has an arrival time and an amount of work (any unit: iterations, samples,
seconds of solo run). A *policy* is called at every event (arrivals, finishes, and the
wake-ups it asked for) with the current :class:`State` and returns a :class:`Decision`:
the rate (work units per second) of every job that runs until the next event. Rates are
piecewise constant between events; a job left out of a decision is stopped and keeps its
progress (preemption). A policy may charge extra work to a job (a restart or checkpoint
overhead, in the job's own work units) and may ask to be woken at a later time.

The engine advances to the earliest of: the next arrival, the earliest finish at the
current rates, the requested wake-up. It records, per job, the first start, the finish,
every constant-rate segment (consecutive equal rates merged) and how often it was stopped
before finishing. Each event costs time in the running jobs, not the waiting ones.

Example
-------
Two jobs of 10 units on a server that runs one job at a time at 1 unit/s, shortest
remaining work first (the second arrives at t = 2 with less work left, so it preempts):

>>> from packgap.engine import Decision, EngineJob, simulate
>>> jobs = [EngineJob("a", 0.0, 10.0), EngineJob("b", 2.0, 5.0)]
>>> def srpt(state):
...     first = min(state.active, key=lambda p: (p.remaining, p.id))
...     return Decision({first.id: 1.0})
>>> run = simulate(jobs, srpt)
>>> run.records["b"].finish, run.records["a"].finish, run.records["a"].preemptions
(7.0, 15.0, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from packgap.errors import PackgapError

#: Relative tolerance below which remaining work counts as done (float round-off of rate x dt).
WORK_TOL = 1e-9


class EngineError(PackgapError):
    """A policy asked for something impossible, or left work that nothing will ever run."""


@dataclass(frozen=True)
class EngineJob:
    """A job as the engine sees it: an id, an arrival time (s) and an amount of work (> 0)."""

    id: str
    arrival: float
    work: float


@dataclass(frozen=True)
class Segment:
    """The job ran at ``rate`` work units per second from ``start`` to ``end``."""

    start: float
    end: float
    rate: float


@dataclass
class Progress:
    """Live state of one job (owned by the engine; policies read it, never write it)."""

    job: EngineJob
    done: float = 0.0
    rate: float = 0.0
    charged: float = 0.0
    start: float | None = None
    finish: float | None = None
    preemptions: int = 0
    running_s: float = 0.0
    segments: list[Segment] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.job.id

    @property
    def work(self) -> float:
        """The job's work plus everything the policy charged it."""
        return self.job.work + self.charged

    @property
    def remaining(self) -> float:
        return max(0.0, self.work - self.done)


@dataclass(frozen=True)
class State:
    """What a policy sees at an event: the time, why it was called, and every arrived job.

    ``active`` lists the arrived, unfinished jobs in arrival order (never empty: an idle
    gap is skipped to the next arrival); ``arrived`` and ``finished`` the ids that arrived
    or finished since the previous call; ``woken`` is True when the policy's own wake-up is
    among the causes.
    """

    now: float
    active: tuple[Progress, ...]
    arrived: tuple[str, ...]
    finished: tuple[str, ...]
    woken: bool
    progress: Mapping[str, Progress]


@dataclass(frozen=True)
class Decision:
    """Rates (work units / s, > 0) of the jobs that run until the next event; others stop.

    ``charge`` adds work to jobs (e.g. a restart overhead of ``seconds x rate``);
    ``wake_at`` asks for a call at that absolute time even if nothing else happens.
    """

    rates: Mapping[str, float]
    charge: Mapping[str, float] = field(default_factory=dict)
    wake_at: float | None = None


Policy = Callable[[State], Decision]


@dataclass(frozen=True)
class Record:
    """What happened to one job: first start, finish, segments and stops before finishing."""

    job: EngineJob
    start: float
    finish: float
    charged: float
    preemptions: int
    segments: tuple[Segment, ...]

    @property
    def completion(self) -> float:
        """Job completion time: finish - arrival."""
        return self.finish - self.job.arrival

    @property
    def queuing(self) -> float:
        """Time from arrival to first start."""
        return self.start - self.job.arrival


@dataclass(frozen=True)
class Run:
    """The outcome of :func:`simulate`: a record per job (input order) and the event count."""

    records: dict[str, Record]
    events: int

    @property
    def makespan(self) -> float:
        return max((r.finish for r in self.records.values()), default=0.0)


def _checked_jobs(jobs: Iterable[EngineJob]) -> list[EngineJob]:
    out = list(jobs)
    seen: set[str] = set()
    for j in out:
        if j.id in seen:
            raise EngineError(f"job {j.id!r} appears twice")
        seen.add(j.id)
        if not (math.isfinite(j.arrival) and j.arrival >= 0):
            raise EngineError(f"job {j.id!r}: arrival must be finite and >= 0, got {j.arrival}")
        if not (math.isfinite(j.work) and j.work > 0):
            raise EngineError(f"job {j.id!r}: work must be finite and > 0, got {j.work}")
    return out


def _apply(
    decision: Decision,
    now: float,
    progress: dict[str, Progress],
    active: dict[str, Progress],
    running: dict[str, Progress],
) -> None:
    """Set the rates of ``decision``; every running job it leaves out stops (a preemption)."""
    for jid, extra in decision.charge.items():
        if jid not in active or not (math.isfinite(extra) and extra >= 0):
            raise EngineError(f"charge {extra!r} for job {jid!r}: not an active job or not a finite amount >= 0")
        active[jid].charged += extra
    for jid, rate in decision.rates.items():
        if jid not in active:
            state = "unknown" if jid not in progress else "not active (not arrived or already finished)"
            raise EngineError(f"policy gave a rate to job {jid!r}, which is {state}")
        if not (math.isfinite(rate) and rate > 0):
            raise EngineError(f"policy gave job {jid!r} rate {rate!r}; rates must be finite and > 0")
    for jid in [jid for jid in running if jid not in decision.rates]:
        running.pop(jid).rate = 0.0
        progress[jid].preemptions += 1
    for jid, rate in decision.rates.items():
        p = active[jid]
        if p.start is None:
            p.start = now
        p.rate = rate
        running[jid] = p


def simulate(jobs: Iterable[EngineJob], policy: Policy, *, max_events: int = 10_000_000) -> Run:
    """Run ``policy`` over ``jobs`` until every job has done its work.

    Raises :class:`EngineError` when the policy names an unknown, finished or not yet
    arrived job, gives a rate that is not finite and > 0, or leaves unfinished jobs with
    nothing running, nothing arriving and no wake-up (it would wait forever).
    """
    order = _checked_jobs(jobs)
    progress = {j.id: Progress(j) for j in order}
    pending = sorted(order, key=lambda j: j.arrival)
    active: dict[str, Progress] = {}
    running: dict[str, Progress] = {}
    now, nxt, events = 0.0, 0, 0
    arrived: list[str] = []
    finished: list[str] = []
    woken = False
    while nxt < len(pending) or active:
        if not active:
            now = max(now, pending[nxt].arrival)
        while nxt < len(pending) and pending[nxt].arrival <= now:
            active[pending[nxt].id] = progress[pending[nxt].id]
            arrived.append(pending[nxt].id)
            nxt += 1
        state = State(now, tuple(active.values()), tuple(arrived), tuple(finished), woken, progress)
        decision = policy(state)
        events += 1
        if events > max_events:
            raise EngineError(f"more than {max_events} events: the policy keeps waking without progress")
        _apply(decision, now, progress, active, running)
        wake = decision.wake_at if decision.wake_at is not None and decision.wake_at > now else None
        arrived, finished = [], []
        step = min((p.remaining / p.rate for p in running.values()), default=math.inf)
        # Land exactly on an arrival or a wake-up, so round-off never leaves it ahead.
        end = now + step
        if nxt < len(pending) and pending[nxt].arrival - now <= step:
            step, end = pending[nxt].arrival - now, pending[nxt].arrival
        woken = wake is not None and wake - now <= step
        if woken and wake is not None:
            step, end = wake - now, wake
        if not math.isfinite(step):
            stuck = ", ".join(sorted(active))
            raise EngineError(f"at t = {now:g} jobs {stuck} wait with nothing running, arriving or waking")
        for p in list(running.values()):
            last = p.segments[-1] if p.segments else None
            if last is not None and last.end == now and last.rate == p.rate:
                p.segments[-1] = Segment(last.start, end, p.rate)
            else:
                p.segments.append(Segment(now, end, p.rate))
            p.running_s += step
            p.done += p.rate * step
            if p.remaining <= WORK_TOL * p.work or p.remaining / p.rate <= WORK_TOL * max(1.0, end):
                p.done, p.finish, p.rate = p.work, end, 0.0
                finished.append(p.id)
                del active[p.id], running[p.id]
        now = end
    return Run({jid: _record(p) for jid, p in progress.items()}, events)


def _record(p: Progress) -> Record:
    """The record of a finished job (every job has started and finished when the loop ends)."""
    assert p.start is not None and p.finish is not None
    return Record(p.job, p.start, p.finish, p.charged, p.preemptions, tuple(p.segments))
