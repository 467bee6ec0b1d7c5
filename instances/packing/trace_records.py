"""Jobs read from public trace files, before any family's mapping (the trace builders' common part).

A reader turns one trace file into a :class:`JobTrace`: per job its file line, id, submit
time (s), GPU demand and standalone duration (s). The packing builder
(:mod:`packgap.instances.packing.from_trace`) and the cluster-trace builder
(:mod:`packgap.instances.placement.from_trace`) map those to their families. Every bad cell is
reported at once (:class:`CellReader`) as ``line N, column NAME`` of the file, never as a
traceback.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from packgap.errors import InstanceError, PackgapError, Problem

#: Problems listed before the rest are only counted (a broken 80,000-row file stays readable).
MAX_LISTED = 20


@dataclass(frozen=True)
class TraceRecord:
    """One job: ``line`` of the file it came from, ``submit_s`` as the file gives it (s)."""

    line: int
    id: str
    submit_s: float
    gpus: int
    duration_s: float


@dataclass(frozen=True)
class JobTrace:
    """The jobs of one file, and the column that holds the GPU demand (named in errors)."""

    path: Path
    gpus_column: str
    records: tuple[TraceRecord, ...]


def listed(problems: Sequence[Problem]) -> list[Problem]:
    """The first :data:`MAX_LISTED` problems and a count of the others."""
    if len(problems) <= MAX_LISTED:
        return list(problems)
    return [*problems[:MAX_LISTED], Problem("", f"... and {len(problems) - MAX_LISTED} more")]


class CellReader:
    """Converts cells of one file, recording ``line N, column NAME`` problems until :meth:`finish`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.problems: list[Problem] = []

    def error(self, line: int, column: str, message: str) -> None:
        self.problems.append(Problem(f"line {line}, column {column}", message))

    def number(self, line: int, column: str, text: str, *, integer: bool = False, minimum: float = 0.0) -> float | None:
        """A finite number >= ``minimum`` (a whole one with ``integer``), else None and a problem."""
        try:
            value = float(text)
        except ValueError:
            self.error(line, column, f"{text!r} is not a number")
            return None
        if not math.isfinite(value) or value < minimum:
            self.error(line, column, f"must be a finite number >= {minimum:g}, got {text!r}")
            return None
        if integer and not value.is_integer():
            self.error(line, column, f"must be a whole number, got {text!r}")
            return None
        return value

    def name(self, line: int, column: str, text: str) -> str | None:
        """A non-empty id or name, else None and a problem."""
        if not text.strip():
            self.error(line, column, "is empty")
            return None
        return text

    def finish(self) -> None:
        if self.problems:
            raise InstanceError(str(self.path), listed(self.problems))

    def trace(self, gpus_column: str, records: Sequence[TraceRecord], id_column: str | None = None) -> JobTrace:
        """The file's jobs once every cell was read (:meth:`finish`); ids from ``id_column``
        must be unique."""
        self.finish()
        trace = JobTrace(self.path, gpus_column, tuple(records))
        if id_column is not None:
            unique_ids(trace, id_column)
        return trace


def unique_ids(trace: JobTrace, id_column: str) -> None:
    """Every repeated job id, named by its line and the line of its first occurrence."""
    seen: dict[str, int] = {}
    problems = []
    for r in trace.records:
        if r.id in seen:
            problems.append(Problem(f"line {r.line}, column {id_column}", f"duplicate id {r.id!r} (line {seen[r.id]})"))
        seen.setdefault(r.id, r.line)
    if problems:
        raise InstanceError(str(trace.path), listed(problems))


def select(trace: JobTrace, max_jobs: int | None, widest: int, drop_wide: bool, where: str) -> tuple[TraceRecord, ...]:
    """The first ``max_jobs`` jobs in submit order (file order among equal times).

    A job wider than ``widest`` GPUs (``where`` says what bounds it) is dropped before the
    count with ``drop_wide`` and is an error otherwise, naming its line and column.
    """
    if max_jobs is not None and max_jobs < 1:
        raise PackgapError(f"--max-jobs must be >= 1, got {max_jobs}")
    ordered = sorted(trace.records, key=lambda r: (r.submit_s, r.line))
    if drop_wide:
        ordered = [r for r in ordered if r.gpus <= widest]
    chosen = tuple(ordered[:max_jobs])
    wide = [
        Problem(
            f"line {r.line}, column {trace.gpus_column}",
            f"{r.gpus} GPUs exceed {where} ({widest}); pass --drop-wide to leave such jobs out",
        )
        for r in chosen
        if r.gpus > widest
    ]
    if wide:
        raise InstanceError(str(trace.path), listed(wide))
    if not chosen:
        raise PackgapError(f"{trace.path}: no jobs to build from")
    return chosen


def arrivals(records: Sequence[TraceRecord]) -> list[float]:
    """Submit times moved so that the first chosen job arrives at 0 (ms resolution)."""
    origin = min(r.submit_s for r in records)
    return [round(r.submit_s - origin, 3) for r in records]
