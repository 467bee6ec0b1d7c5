"""An event-driven progress engine: jobs with an amount of work, rates chosen by a policy.

Every job has an arrival time and an amount of work (any unit: iterations, samples,
seconds of solo run). A *policy* is called at every event (arrivals, finishes, and the
wake-ups it asked for) with the current :class:`State` and returns a :class:`Decision`:
the rate (work units per second) of every job that runs until the next event. Rates are
piecewise constant between events; a job left out of a decision is stopped and keeps its
progress (preemption). A policy that tracks its own changes may instead return only the
new and changed rates and the jobs that stop (``Decision.stop``); every other running job
keeps its rate. A policy may charge extra work to a job (a restart or checkpoint
overhead, in the job's own work units) and may ask to be woken at a later time.

The engine advances to the earliest of: the next arrival, the earliest finish at the
current rates, the requested wake-up. It records, per job, the first start, the finish,
every constant-rate segment (consecutive equal rates merged) and how often it was stopped
before finishing. Each event costs a few array operations over the running jobs (their
progress lives in numpy columns, advanced by the same float operations one job at a time
would do) plus Python work for the jobs whose rates change, none for the waiting ones.

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
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from packgap.engine_records import EngineError, EngineJob, Record, Run, Segment, checked_jobs

#: Relative tolerance below which remaining work counts as done (float round-off of rate x dt).
WORK_TOL = 1e-9


@dataclass(frozen=True)
class Columns:
    """Every job's done work, work (own + charged) and seconds run so far, in the order the
    jobs were given: read-only views of the engine's arrays, for policies that read many
    jobs at once (``remaining = max(0, work - done)``, as :attr:`Progress.remaining`)."""

    done: np.ndarray
    work: np.ndarray
    running_s: np.ndarray


class _Ledger:
    """Every job's done work, running seconds, rate and work (own + charged), as columns, and
    one column more (index ``len(work)``) that takes what the engine writes for its holes."""

    def __init__(self, work: Sequence[float]) -> None:
        self.jobs = len(work)
        self.work = np.array([*work, 0.0], dtype=float)
        self.done = np.zeros(self.jobs + 1)
        self.running_s = np.zeros(self.jobs + 1)
        self.rate = np.zeros(self.jobs + 1)
        self.now = 0.0

    def columns(self) -> Columns:
        views = [x[: self.jobs].view() for x in (self.done, self.work, self.running_s)]
        for v in views:
            v.flags.writeable = False
        return Columns(*views)


class Progress:
    """Live state of one job (owned by the engine; policies read it, never write it).

    ``segments`` are the job's constant-rate runs so far, the current one ending now.
    """

    def __init__(self, job: EngineJob, ledger: _Ledger | None = None, slot: int = 0) -> None:
        self.job = job
        self.charged = 0.0
        self.start: float | None = None
        self.finish: float | None = None
        self.preemptions = 0
        self._ledger = ledger if ledger is not None else _Ledger([job.work])
        self._slot = slot
        self._closed: list[Segment] = []
        self._open: tuple[float, float] | None = None  # (start, rate) of the run in progress

    @property
    def id(self) -> str:
        return self.job.id

    @property
    def work(self) -> float:
        """The job's work plus everything the policy charged it."""
        return self.job.work + self.charged

    @property
    def done(self) -> float:
        return float(self._ledger.done[self._slot])

    @property
    def rate(self) -> float:
        return float(self._ledger.rate[self._slot])

    @property
    def running_s(self) -> float:
        """Seconds run so far, at any rate."""
        return float(self._ledger.running_s[self._slot])

    @property
    def remaining(self) -> float:
        return max(0.0, self.work - self.done)

    @property
    def segments(self) -> list[Segment]:
        if self._open is None:
            return list(self._closed)
        return [*self._closed, Segment(self._open[0], self._ledger.now, self._open[1])]

    def _close(self, end: float) -> None:
        if self._open is not None:
            self._closed.append(Segment(self._open[0], end, self._open[1]))
            self._open = None

    def _run_at(self, rate: float, now: float) -> None:
        """Start a run at ``rate`` now, continuing one that ended now at the same rate."""
        self._close(now)
        last = self._closed[-1] if self._closed else None
        if last is not None and last.end == now and last.rate == rate:
            self._open = (self._closed.pop().start, rate)
        else:
            self._open = (now, rate)
        self._ledger.rate[self._slot] = rate


@dataclass(frozen=True)
class State:
    """What a policy sees at an event: the time, why it was called, and every arrived job.

    ``active_by_id`` holds the arrived, unfinished jobs in arrival order (never empty: an
    idle gap is skipped to the next arrival; the engine's own mapping, valid during the
    call), :attr:`active` the same as a tuple; ``arrived`` and ``finished`` the ids that
    arrived or finished since the previous call; ``woken`` is True when the policy's own
    wake-up is among the causes; ``columns`` holds every job's progress as arrays.
    """

    now: float
    active_by_id: Mapping[str, Progress]
    arrived: tuple[str, ...]
    finished: tuple[str, ...]
    woken: bool
    progress: Mapping[str, Progress]
    columns: Columns

    @cached_property
    def active(self) -> tuple[Progress, ...]:
        """The arrived, unfinished jobs in arrival order; built on first use, as a policy that
        tracks its own jobs never needs them (the waiting queue can be long)."""
        return tuple(self.active_by_id.values())


@dataclass(frozen=True)
class Decision:
    """Rates (work units / s, > 0) of the jobs that run until the next event; others stop.

    ``charge`` adds work to jobs (e.g. a restart overhead of ``seconds x rate``);
    ``wake_at`` asks for a call at that absolute time even if nothing else happens. With
    ``stop`` given, ``rates`` holds only new or changed rates, ``stop`` the running jobs
    that stop, and every other running job keeps its rate.
    """

    rates: Mapping[str, float]
    charge: Mapping[str, float] = field(default_factory=dict)
    wake_at: float | None = None
    stop: Collection[str] | None = None


Policy = Callable[[State], Decision]


class _Cluster:
    """The engine's bookkeeping: active and running jobs, and the running jobs' slots in
    the ledger in the order they started (the order ``State.finished`` reports them)."""

    def __init__(self, jobs: list[EngineJob]) -> None:
        self.ledger = _Ledger([j.work for j in jobs])
        self.by_slot = [Progress(j, self.ledger, k) for k, j in enumerate(jobs)]
        self.progress = {p.id: p for p in self.by_slot}
        self.active: dict[str, Progress] = {}
        self.running: dict[str, Progress] = {}
        # The running jobs' columns in the order they started (contiguous, no gather per event;
        # done and running_s copied to the ledger), with holes where jobs finished or stopped:
        # slot ``hole`` (the ledger's spare column), rate 1 and infinite work, so never due.
        # Starts are appended, the holes squeezed out when they are as many as the jobs.
        # ``position`` gives a running job's place, by slot; also kept: the seconds ``due`` at
        # the current rates and the least of them, and a bound on work / rate over the jobs
        # (the largest any job had when its rate was set).
        self.hole = len(jobs)
        self.position = [0] * len(jobs)
        self._arrange(np.zeros(0, dtype=np.intp), *(np.zeros(0) for _ in range(4)))
        self.due = np.zeros(0)
        self.longest = 0.0
        self.soonest = math.inf

    def _arrange(self, *columns: np.ndarray) -> None:
        """Lay out the running columns (slots, done, running_s, rate, work; no holes) with room
        for as many starts again."""
        n = len(columns[0])
        self._room = [np.zeros(2 * n + 16, dtype=c.dtype) for c in columns]
        for room, values in zip(self._room, columns, strict=True):
            room[:n] = values
        for k, slot in enumerate(columns[0].tolist()):
            self.position[slot] = k
        self.holes = 0
        self._view(n)

    def _view(self, n: int) -> None:
        self.n = n
        self.slots, self.done, self.running_s, self.rate, self.work = (room[:n] for room in self._room)

    def _squeeze(self, full: bool = False) -> None:
        """Squeeze the holes out once they are as many as the running jobs, or the columns are ``full``."""
        if full or 2 * self.holes >= self.n > 0:
            keep = self.slots != self.hole
            self._arrange(*(x[keep] for x in (self.slots, self.done, self.running_s, self.rate, self.work)))

    def _join(self, slot: int, rate: float) -> None:
        self._squeeze(full=self.n == len(self._room[0]))
        led, k = self.ledger, self.n
        for room, value in zip(
            self._room, (slot, led.done[slot], led.running_s[slot], rate, led.work[slot]), strict=True
        ):
            room[k] = value
        self.position[slot] = k
        self._view(k + 1)

    def _leave(self, k: int) -> None:
        self.slots[k], self.rate[k], self.work[k] = self.hole, 1.0, math.inf
        self.holes += 1

    def apply(self, decision: Decision, now: float) -> None:
        """Set the rates of ``decision``; every running job it stops is preempted."""
        active, running = self.active, self.running
        for jid, extra in decision.charge.items():
            if jid not in active or not (math.isfinite(extra) and extra >= 0):
                raise EngineError(f"charge {extra!r} for job {jid!r}: not an active job or not a finite amount >= 0")
            p = active[jid]
            p.charged += extra
            self.ledger.work[p._slot] = p.work
            if jid in running:
                self.work[self.position[p._slot]] = p.work
        for jid, rate in decision.rates.items():
            if jid not in active:
                state = "unknown" if jid not in self.progress else "not active (not arrived or already finished)"
                raise EngineError(f"policy gave a rate to job {jid!r}, which is {state}")
            if not (math.isfinite(rate) and rate > 0):
                raise EngineError(f"policy gave job {jid!r} rate {rate!r}; rates must be finite and > 0")
        if decision.stop is None:
            stops = [jid for jid in running if jid not in decision.rates]
        else:
            stops = list(dict.fromkeys(decision.stop))
            for jid in stops:
                if jid not in running or jid in decision.rates:
                    raise EngineError(f"policy stopped job {jid!r}, which is not running or also gets a rate")
        for jid in stops:
            p = running.pop(jid)
            p._close(now)
            self.ledger.rate[p._slot] = 0.0
            p.preemptions += 1
            self._leave(self.position[p._slot])
        for jid, rate in decision.rates.items():
            p = active[jid]
            if p.start is None:
                p.start = now
            if jid in running and p.rate == rate:
                continue
            p._run_at(rate, now)
            self.longest = max(self.longest, p.work / rate)
            if jid in running:
                self.rate[self.position[p._slot]] = rate
            else:
                running[jid] = p
                self._join(p._slot, rate)
        for jid in decision.charge:
            if jid in running:
                self.longest = max(self.longest, running[jid].work / running[jid].rate)
        self._squeeze()

    def earliest_finish(self) -> float:
        """Seconds until the first running job finishes at the current rates (each job's: ``due``)."""
        if not self.n:
            return math.inf
        self.due = (self.work - self.done) / self.rate
        self.soonest = float(self.due.min())
        # max(0, min(left / rate)) is min(max(0, left) / rate): rates are > 0.
        return max(0.0, self.soonest)

    def advance(self, step: float, end: float) -> list[str]:
        """Run every running job for ``step`` s up to ``end``; the ids that finished."""
        led, s = self.ledger, self.slots
        if not self.n:
            return []
        work = self.work
        self.running_s += step
        self.done += self.rate * step
        led.running_s[s], led.done[s] = self.running_s, self.done
        # Only a job due within the step give or take twice the tolerances can have finished
        # (float error ~1e-16 of work / rate and of the step, far below WORK_TOL): tested alone.
        reach = step + 2 * WORK_TOL * max(1.0, end, self.longest)
        if self.soonest > reach:
            return []
        near = (self.due <= reach).nonzero()[0]
        left = np.maximum(0.0, work[near] - self.done[near])
        over = near[(left <= WORK_TOL * work[near]) | (left / self.rate[near] <= WORK_TOL * max(1.0, end))]
        finished = []
        for k in over.tolist():
            slot = int(s[k])
            led.done[slot], led.rate[slot] = work[k], 0.0
            p = self.by_slot[slot]
            p.finish = end
            p._close(end)
            finished.append(p.id)
            del self.active[p.id], self.running[p.id]
            self._leave(k)
        self._squeeze()
        return finished


def simulate(jobs: Iterable[EngineJob], policy: Policy, *, max_events: int = 10_000_000) -> Run:
    """Run ``policy`` over ``jobs`` until every job has done its work.

    Raises :class:`EngineError` when the policy names an unknown, finished or not yet
    arrived job, gives a rate that is not finite and > 0, stops a job that is not running,
    or leaves unfinished jobs with nothing running, nothing arriving and no wake-up (it
    would wait forever).
    """
    order = checked_jobs(jobs)
    cluster = _Cluster(order)
    active, progress = cluster.active, cluster.progress
    pending = sorted(order, key=lambda j: j.arrival)
    columns = cluster.ledger.columns()
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
        cluster.ledger.now = now
        state = State(now, active, tuple(arrived), tuple(finished), woken, progress, columns)
        decision = policy(state)
        events += 1
        if events > max_events:
            raise EngineError(f"more than {max_events} events: the policy keeps waking without progress")
        cluster.apply(decision, now)
        wake = decision.wake_at if decision.wake_at is not None and decision.wake_at > now else None
        step = cluster.earliest_finish()
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
        arrived, finished = [], cluster.advance(step, end)
        now = end
    cluster.ledger.now = now
    return Run({p.id: _record(p) for p in cluster.by_slot}, events)


def _record(p: Progress) -> Record:
    """The record of a finished job (every job has started and finished when the loop ends)."""
    assert p.start is not None and p.finish is not None
    return Record(p.job, p.start, p.finish, p.charged, p.preemptions, tuple(p._closed))
