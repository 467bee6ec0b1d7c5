"""Loaders for the PAL artifact's trace files, in their own formats (traces/pal/PROVENANCE.md).

* ``sia_philly_workloads/workload-{1..8}.csv``: ``job_id,num_gpus,submit_time,duration,model``,
  160 jobs each ("Sia-Philly", section IV-B1); ``duration`` is a number of iterations.
* ``blox-sim-inputs/gpu_perfvar_64gpu_seed42.csv``: ``GPU_ID,Node_ID,Local_GPU_ID,
  PerfVar_classA..D``, the artifact simulator's per-GPU slowdown table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from packgap.errors import PackgapError
from packgap.instances.csvfile import cell, header, number, read_csv, whole

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


def _whole(path: Path, line: int, row: dict[str, str], column: str) -> int:
    return whole(row[column], cell(path, line, column))


def read_workload(path: Path) -> list[TraceJob]:
    """One Sia-Philly workload file, in file order."""
    jobs = []
    for line, row in read_csv(path, WORKLOAD_COLUMNS, "a Sia-Philly workload CSV"):
        job = TraceJob(
            _whole(path, line, row, "job_id"),
            _whole(path, line, row, "num_gpus"),
            number(row["submit_time"], cell(path, line, "submit_time")),
            number(row["duration"], cell(path, line, "duration")),
            row["model"],
        )
        if job.gpus < 1 or job.submit_time < 0 or job.duration < 0 or not job.model:
            raise PackgapError(f"{path} line {line}: needs num_gpus >= 1, submit_time and duration >= 0 and a model")
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
    rows = read_csv(path, TABLE_COLUMNS, "a blox gpu_perfvar table")
    classes = [c for c in header(path) if c.startswith("PerfVar_class")]
    if not classes or not rows:
        raise PackgapError(f"{path}: needs PerfVar_class* columns and at least one GPU row")
    nodes = 1 + max(_whole(path, line, r, "Node_ID") for line, r in rows)
    per_node = len(rows) // nodes
    for i, (line, row) in enumerate(rows):
        gpu = _whole(path, line, row, "GPU_ID")
        where = (_whole(path, line, row, "Node_ID"), _whole(path, line, row, "Local_GPU_ID"))
        if gpu != i or where != divmod(gpu, per_node) or nodes * per_node != len(rows):
            raise PackgapError(
                f"{path} line {line}: GPU {gpu} is not GPU {i} = node {i // max(1, per_node)} of {nodes} equal nodes"
            )
    factors = {
        c.removeprefix("PerfVar_class"): tuple(number(r[c], cell(path, line, c)) for line, r in rows) for c in classes
    }
    return GpuTable(nodes, per_node, factors)
