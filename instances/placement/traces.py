"""Loaders for the PAL artifact's trace files, in their own formats (traces/pal/PROVENANCE.md).

* ``sia_philly_workloads/workload-{1..8}.csv``: ``job_id,num_gpus,submit_time,duration,model``,
  160 jobs each ("Sia-Philly", section IV-B1); ``duration`` is a number of iterations.
* ``blox-sim-inputs/gpu_perfvar_64gpu_seed42.csv``: ``GPU_ID,Node_ID,Local_GPU_ID,
  PerfVar_classA..D``, the artifact simulator's per-GPU slowdown table.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packgap.errors import PackgapError

WORKLOAD_COLUMNS = ("job_id", "num_gpus", "submit_time", "duration", "model")
TABLE_COLUMNS = ("GPU_ID", "Node_ID", "Local_GPU_ID")


@dataclass(frozen=True)
class TraceJob:
    """One trace row: gang demand, submit time (s), work in iterations, model name."""

    job_id: int
    gpus: int
    submit_time: float
    duration: float
    model: str


@dataclass(frozen=True)
class GpuTable:
    """A per-GPU slowdown table: GPU g is local GPU ``g % gpus_per_node`` of node
    ``g // gpus_per_node``; ``factors[c][g]`` its slowdown for class ``c``."""

    nodes: int
    gpus_per_node: int
    factors: dict[str, tuple[float, ...]]


def _rows(path: Path, required: tuple[str, ...]) -> tuple[list[str], list[dict[str, str]]]:
    try:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            header = list(reader.fieldnames or [])
            missing = [c for c in required if c not in header]
            if missing:
                raise PackgapError(f"{path}: missing column(s) {', '.join(missing)}")
            return header, list(reader)
    except OSError as exc:
        raise PackgapError(f"cannot read {path}: {exc}") from None


def _field(path: Path, line: int, row: dict[str, str], name: str, cast: Callable[[str], Any]) -> Any:
    try:
        return cast(row[name])
    except (TypeError, ValueError):
        raise PackgapError(f"{path}:{line}: {name} = {row[name]!r} is not valid") from None


def read_workload(path: Path) -> list[TraceJob]:
    """One Sia-Philly workload file, in file order."""
    _, rows = _rows(path, WORKLOAD_COLUMNS)
    jobs = []
    for line, row in enumerate(rows, start=2):
        job = TraceJob(
            _field(path, line, row, "job_id", int),
            _field(path, line, row, "num_gpus", int),
            _field(path, line, row, "submit_time", float),
            _field(path, line, row, "duration", float),
            _field(path, line, row, "model", str),
        )
        if job.gpus < 1 or job.submit_time < 0 or job.duration < 0 or not job.model:
            raise PackgapError(f"{path}:{line}: needs num_gpus >= 1, submit_time and duration >= 0 and a model")
        jobs.append(job)
    return jobs


def read_sia_philly(traces_dir: Path) -> dict[str, list[TraceJob]]:
    """All ``workload-*.csv`` of ``<traces_dir>/sia_philly_workloads`` by file stem."""
    folder = traces_dir / "sia_philly_workloads"
    files = sorted(folder.glob("workload-*.csv"), key=lambda p: int(p.stem.split("-")[-1]))
    if not files:
        raise PackgapError(f"no workload-*.csv in {folder}")
    return {p.stem: read_workload(p) for p in files}


def read_gpu_table(path: Path) -> GpuTable:
    """A blox ``gpu_perfvar`` table; GPU ids must run 0..n-1 node by node."""
    header, rows = _rows(path, TABLE_COLUMNS)
    classes = [c for c in header if c.startswith("PerfVar_class")]
    if not classes or not rows:
        raise PackgapError(f"{path}: needs PerfVar_class* columns and at least one GPU row")
    nodes = 1 + max(_field(path, i + 2, r, "Node_ID", int) for i, r in enumerate(rows))
    per_node = len(rows) // nodes
    for line, row in enumerate(rows, start=2):
        gpu = _field(path, line, row, "GPU_ID", int)
        where = (_field(path, line, row, "Node_ID", int), _field(path, line, row, "Local_GPU_ID", int))
        if gpu != line - 2 or where != divmod(gpu, per_node) or nodes * per_node != len(rows):
            raise PackgapError(
                f"{path}:{line}: GPU {gpu} is not GPU {line - 2} = node "
                f"{(line - 2) // max(1, per_node)} of {nodes} equal nodes"
            )
    factors = {
        c.removeprefix("PerfVar_class"): tuple(_field(path, i + 2, r, c, float) for i, r in enumerate(rows))
        for c in classes
    }
    return GpuTable(nodes, per_node, factors)
