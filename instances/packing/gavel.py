"""Readers of Gavel's Philly-derived job files (traces/gavel/PROVENANCE.md; Gavel, OSDI'20, MIT).

Two kinds of file:

* ``traces/msr/seed={0..4}/<vc>.trace``: one file per Philly virtual cluster (14 VCs,
  15,264 jobs per seed), tab-separated, 7 fields, Gavel's **old** format (parser
  ``utils.parse_trace`` of commit 6fb30f9, not the 10-field one at HEAD): ``job_type,
  command, num_steps_arg, needs_data_dir, total_steps, arrival_time (s), scale_factor
  (GPUs)``. Job ids are ``r<line>``.

  Duration. Gavel's generator wrote ``total_steps = int(duration x throughput)`` with the
  job type's isolated V100 throughput (steps/s). The throughputs used are those of the old
  per-type layout, ``oracle_throughputs_motivation.json`` (``{gpu: {job_type: {"null":
  steps/s}}}``): checked here, every one of the 76,320 rows of the five seeds is
  ``int(d x t)`` for a whole number of seconds ``d``, and 8,412 of the 15,264 rows of seed 0
  match a (duration, GPUs) row of the same VC in ``philly/philly.csv`` (which covers only
  Sep-Dec 2017); the (type, scale factor) throughputs of ``simulation_throughputs.json``
  match 2,499 and lack 10 % of the (type, scale factor) pairs. So duration =
  ``ceil(total_steps / t)``, the smallest such ``d``.
  ``command``, ``num_steps_arg`` and ``needs_data_dir`` are not used; the job type is used
  only for its throughput (models are assigned by the family builder).

* ``philly_job_distribution.csv`` (converted from Gavel's pickle): ``duration_s,num_gpus``,
  33,192 pairs, no arrival times and no ids (no caller of it in Gavel at HEAD). Jobs in file
  order get Poisson arrivals at ``jobs_per_hour`` (Gavel's arrival process), seeded; ids
  ``r<line>``. Without ``jobs_per_hour`` the file is refused.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.csvfile import header, opened, read_csv
from packgap.instances.packing.trace_records import CellReader, JobTrace, TraceRecord
from packgap.instances.traces import traces_dir

TRACE_FIELDS = (
    "job_type",
    "command",
    "num_steps_arg",
    "needs_data_dir",
    "total_steps",
    "arrival_time",
    "scale_factor",
)
DISTRIBUTION_COLUMNS = ("duration_s", "num_gpus")
#: Throughput table of the old per-type layout, relative to the trace folder, and its GPU.
THROUGHPUTS = Path("gavel") / "oracle_throughputs_motivation.json"
REFERENCE_GPU = "v100"
#: Seed-sequence key of the arrival stream, apart from the family builder's model draws.
ARRIVAL_STREAM = 1


def read_throughputs(path: Path, gpu: str = REFERENCE_GPU) -> dict[str, float]:
    """Isolated throughput (steps/s) per job type on ``gpu`` from an old-layout table."""
    try:
        table: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PackgapError(f"cannot read Gavel throughputs {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise PackgapError(f"{path}: not JSON ({exc})") from None
    per_type = table.get(gpu) if isinstance(table, dict) else None
    if not isinstance(per_type, dict):
        raise PackgapError(f"{path}: no {gpu!r} table (expected {{gpu: {{job_type: {{'null': steps/s}}}}}})")
    out = {}
    for job_type, entry in per_type.items():
        value = entry.get("null") if isinstance(entry, dict) else None
        if job_type.startswith("("):
            raise PackgapError(
                f"{path}: keys like {job_type!r} are the (job type, scale factor) layout; the msr traces "
                f"were generated with the per-type layout of {THROUGHPUTS.name}"
            )
        if not isinstance(value, int | float) or not value > 0:
            raise PackgapError(f"{path}: {gpu}.{job_type}.null must be a throughput > 0, got {value!r}")
        out[job_type] = float(value)
    return out


def read_trace(path: Path, throughputs: dict[str, float]) -> JobTrace:
    """Every job of a 7-field Gavel ``.trace`` file, durations recovered from ``throughputs``."""
    rows = read_tab_lines(path)
    cells = CellReader(path)
    records = []
    for line, fields in rows:
        row = dict(zip(TRACE_FIELDS, fields, strict=True))
        rate = throughputs.get(row["job_type"])
        if rate is None:
            cells.error(line, "job_type", f"no V100 throughput for {row['job_type']!r} in the throughputs table")
        steps = cells.number(line, "total_steps", row["total_steps"], integer=True, minimum=1)
        arrival = cells.number(line, "arrival_time", row["arrival_time"])
        gpus = cells.number(line, "scale_factor", row["scale_factor"], integer=True, minimum=1)
        if rate is not None and steps is not None and arrival is not None and gpus is not None:
            records.append(TraceRecord(line, f"r{line}", arrival, int(gpus), float(math.ceil(steps / rate - 1e-9))))
    return cells.trace("scale_factor", records)


def read_tab_lines(path: Path) -> list[tuple[int, list[str]]]:
    """``(line, fields)`` of a tab-separated file of exactly 7 fields a line."""
    with opened(path) as handle:
        lines = handle.read().splitlines()
    out = []
    for number, text in enumerate(lines, start=1):
        fields = text.split("\t")
        if len(fields) != len(TRACE_FIELDS):
            raise PackgapError(
                f"{path}:{number}: expected the 7 tab-separated fields {', '.join(TRACE_FIELDS)}, got {len(fields)}"
            )
        out.append((number, fields))
    return out


def read_distribution(path: Path, jobs_per_hour: float, seed: int) -> JobTrace:
    """``philly_job_distribution.csv`` in file order with seeded Poisson arrivals."""
    if not jobs_per_hour > 0:
        raise PackgapError(f"--jobs-per-hour must be > 0, got {jobs_per_hour}")
    cells = CellReader(path)
    parsed = []
    for line, row in read_csv(path, DISTRIBUTION_COLUMNS, "Gavel's philly_job_distribution.csv"):
        duration = cells.number(line, "duration_s", row["duration_s"])
        gpus = cells.number(line, "num_gpus", row["num_gpus"], integer=True, minimum=1)
        if duration is not None and gpus is not None:
            parsed.append((line, int(gpus), duration))
    cells.finish()
    gaps = np.random.default_rng([seed, ARRIVAL_STREAM]).exponential(3600.0 / jobs_per_hour, size=len(parsed))
    submits = np.cumsum(gaps)
    records = tuple(
        TraceRecord(line, f"r{line}", float(t), gpus, d) for (line, gpus, d), t in zip(parsed, submits, strict=True)
    )
    return JobTrace(path, "num_gpus", records)


def read(
    path: Path, *, throughputs: Path | None, traces: str | Path | None, jobs_per_hour: float | None, seed: int
) -> JobTrace:
    """A ``.trace`` file or ``philly_job_distribution.csv`` (told apart by the first line)."""
    if header(path)[: len(DISTRIBUTION_COLUMNS)] == list(DISTRIBUTION_COLUMNS):
        if jobs_per_hour is None:
            raise PackgapError(f"{path} has no arrival times: pass --jobs-per-hour for Poisson arrivals")
        return read_distribution(path, jobs_per_hour, seed)
    if jobs_per_hour is not None:
        raise PackgapError(f"--jobs-per-hour applies to philly_job_distribution.csv; {path} has arrival times")
    table = throughputs if throughputs is not None else traces_dir(traces) / THROUGHPUTS
    return read_trace(path, read_throughputs(table))
