"""What the event engine (:mod:`packgap.engine`) takes and returns: jobs (checked before a
run), and per job the record of its run (first start, finish, constant-rate segments, stops
before finishing)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from packgap.errors import PackgapError


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


def checked_jobs(jobs: Iterable[EngineJob]) -> list[EngineJob]:
    """``jobs`` as a list, or an :class:`EngineError` naming the first duplicate id, or arrival
    or work that is not finite and non-negative (work: positive)."""
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
