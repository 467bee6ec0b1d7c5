"""A researcher's own jobs from a CSV file (``packgap instances from-csv FAMILY FILE``, issue 32.4).

Columns (a header line names them; any order, other columns ignored):

* ``arrival_s`` (required): submit time, seconds; shifted so that the first job arrives at 0;
* ``gpus`` (required): GPUs the job asks for, a whole number >= 1;
* ``duration_s`` or ``iterations`` (one of them required; both: ``iterations`` wins): the
  job's length, as solo run time on a median (placement) or the fastest (packing) GPU, or in
  training iterations;
* ``model`` (required): the model name, e.g. ``resnet50``;
* ``id`` (optional): the job id (default ``job<line>``); ids must be unique;
* ``deadline_s`` (optional, packing): the job's deadline, seconds on the same clock as
  ``arrival_s`` (default: CUCKOO's eq. 15 draw);
* ``batch_size`` (optional, packing and sharing): the per-GPU batch size (default: the
  family's rule for the model).

Every bad cell is an error naming its line and column, all at once. A row the instance cannot
hold (a job wider than the cluster) is dropped, and a model name packgap has no profile of is
mapped by a stated rule: a name that differs from a known one only in case and punctuation
(``ResNet-50``) is read as that one; any other is mapped as the family's from-trace builders map
every job (:func:`map_models`). Each drop and each mapping is counted and named (line numbers,
reason) in the notes the CLI prints next to the file it writes.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from packgap.errors import PackgapError
from packgap.instances.csvfile import header, read_csv
from packgap.instances.packing.trace_records import CellReader

REQUIRED = ("arrival_s", "gpus", "model")
LENGTHS = ("duration_s", "iterations")
OPTIONAL = ("id", "deadline_s", "batch_size")
#: Lines named in one note before the rest are only counted.
MAX_LINES = 20


class CsvNote(UserWarning):
    """A row of the CSV file dropped or changed (the CLI prints it beside the file it writes)."""


@dataclass(frozen=True)
class CsvJob:
    line: int
    id: str
    arrival_s: float
    gpus: int
    model: str
    duration_s: float | None = None
    iterations: int | None = None
    deadline_s: float | None = None
    batch_size: int | None = None


def read(path: Path) -> list[CsvJob]:
    """Every row of ``path`` as a job, arrivals shifted so the first is 0, in arrival order."""
    found = header(path)
    if not any(c in found for c in LENGTHS):
        raise PackgapError(f"{path}: needs a duration_s or an iterations column (header: {','.join(found) or 'none'})")
    rows = read_csv(path, REQUIRED, "a job list with columns arrival_s, gpus, duration_s or iterations, model")
    cells = CellReader(path)
    jobs: list[CsvJob] = []
    seen: dict[str, int] = {}
    for line, row in rows:
        arrival = cells.number(line, "arrival_s", row["arrival_s"])
        gpus = cells.number(line, "gpus", row["gpus"], integer=True, minimum=1)
        model = cells.name(line, "model", row["model"])
        job_id = cells.name(line, "id", row["id"]) if "id" in row else f"job{line}"
        if job_id is not None and job_id in seen:
            cells.error(line, "id", f"duplicate id {job_id!r} (line {seen[job_id]})")
        elif job_id is not None:
            seen[job_id] = line
        counts = ("iterations", "batch_size")
        optional = {
            c: cells.number(line, c, row[c], integer=c in counts, minimum=1 if c in counts else 0)
            for c in (*LENGTHS, "deadline_s", "batch_size")
            if (row.get(c) or "").strip()
        }
        if not any(c in optional for c in LENGTHS):
            cells.error(line, "duration_s", "needs a duration_s or an iterations value")
        deadline = optional.get("deadline_s")
        if deadline is not None and arrival is not None and deadline < arrival:
            cells.error(line, "deadline_s", f"{deadline:g} is before arrival_s {arrival:g}")
        if arrival is None or gpus is None or model is None or job_id is None:
            continue
        iterations, batch = optional.get("iterations"), optional.get("batch_size")
        jobs.append(
            CsvJob(
                line,
                job_id,
                arrival,
                int(gpus),
                model,
                optional.get("duration_s"),
                None if iterations is None else int(iterations),
                deadline,
                None if batch is None else int(batch),
            )
        )
    cells.finish()
    if not jobs:
        raise PackgapError(f"{path}: no jobs")
    origin = min(j.arrival_s for j in jobs)
    shifted = [
        CsvJob(
            j.line,
            j.id,
            round(j.arrival_s - origin, 3),
            j.gpus,
            j.model,
            j.duration_s,
            j.iterations,
            None if j.deadline_s is None else round(j.deadline_s - origin, 3),
            j.batch_size,
        )
        for j in jobs
    ]
    return sorted(shifted, key=lambda j: (j.arrival_s, j.line))


def lines(jobs: Iterable[CsvJob]) -> str:
    """``lines 3, 7, 9`` (the first :data:`MAX_LINES`, then a count)."""
    numbers = [j.line for j in jobs]
    shown = ", ".join(map(str, numbers[:MAX_LINES]))
    more = f" and {len(numbers) - MAX_LINES} more" if len(numbers) > MAX_LINES else ""
    return f"line{'s' * (len(numbers) > 1)} {shown}{more}"


def note(message: str) -> None:
    warnings.warn(message, CsvNote, stacklevel=2)


def fitting(jobs: Sequence[CsvJob], widest: int, what: str) -> list[CsvJob]:
    """The jobs of at most ``widest`` GPUs; the others are dropped with a note naming their lines."""
    wide = [j for j in jobs if j.gpus > widest]
    if wide:
        note(f"{len(wide)} of {len(jobs)} rows dropped: more GPUs than {what} ({widest}): {lines(wide)}")
    kept = [j for j in jobs if j.gpus <= widest]
    if not kept:
        raise PackgapError(f"no job fits {what} ({widest} GPUs); give a larger cluster")
    return kept


def unused(jobs: Sequence[CsvJob], column: str, family: str) -> None:
    """Note the rows whose ``column`` (``deadline_s``, ``batch_size``) ``family`` has no use for."""
    given = [j for j in jobs if getattr(j, column) is not None]
    if given:
        note(f"column {column} ignored: {family} instances have no {column.removesuffix('_s')} ({lines(given)})")


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def map_models(jobs: Sequence[CsvJob], known: Mapping[str, str], unknown: Callable[[str], str], rule: str) -> list[str]:
    """Each job's model: ``known[name]`` for a name equal to a key of ``known`` up to case and
    punctuation (a model's own name, or another name of the same workload), else
    ``unknown(name)`` (the family's rule, described by ``rule``), once per distinct name in the
    order of first appearance; every change is noted with the lines it touches."""
    by_key = {_key(name): model for name, model in sorted(known.items())}
    mapped: dict[str, str] = {}
    for job in jobs:
        if job.model not in mapped:
            mapped[job.model] = by_key.get(_key(job.model)) or unknown(job.model)
    for name, model in mapped.items():
        if name != model:
            touched = [j for j in jobs if j.model == name]
            how = "read as" if _key(name) in by_key else f"unknown to packgap, mapped ({rule}) to"
            note(f"model {name!r} {how} {model!r}: {len(touched)} row(s), {lines(touched)}")
    return [mapped[j.model] for j in jobs]
