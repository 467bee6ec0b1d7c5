"""Standalone run time of a Pollux application job with a fixed GPU count and batch size.

Pollux workloads give jobs no duration: a job ends when its application has trained
``max_epochs`` epochs (Pollux OSDI'21 artifact, ``simulator/applications.py``). The time a
job takes alone at ``replicas`` GPUs and global batch ``B`` follows the artifact's
``Application.get_configurations``: ``jct = iterations x step_time``, where

* ``iterations``: the ``iteration`` column of ``validation-<B>.csv`` at epoch
  ``max_epochs - 1``, linear between the two nearest profiled batch sizes
  (``get_iteration``); ``max_epochs`` = rows of the shortest validation file, the
  artifact's default, equal to its per-application values (bert 2, cifar10 100, ncf 10,
  imagenet 90, deepspeech2 80, yolov3 50);
* placement: the replicas packed into nodes of 4 GPUs ("a cluster of 16 nodes each with 4
  GPUs"), turned to its smallest rotation (``get_throughput``), e.g. 6 -> ``24``;
* local batch ``ceil(B / replicas)``; above the largest profiled local batch, gradient
  accumulation: ``accum = ceil(local / max_local) - 1`` extra micro-steps on ``atomic =
  ceil(local / (accum + 1))``, each costing ``step_time - sync_time``;
* ``step_time``, ``sync_time`` (s): ``placements.csv`` rows of that placement, linear in
  the local batch. Where the artifact's ``interp1d`` would fail (a local batch outside the
  profiled range) the nearest profiled value is used. A placement that was not profiled
  uses the rows of ``scalability.csv`` and ``placements.csv`` with the nearest
  ``num_replicas``, then the nearest ``num_nodes``, linear in local batch: a simplification
  of the artifact's 3-D ``LinearNDInterpolator``, stated here.

Files are read by column name, so Pollux's and Sia's untyped copies (same content,
traces/sia/PROVENANCE.md) both work.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.csvfile import read_csv
from packgap.instances.packing.trace_records import CellReader

GPUS_PER_NODE = 4
#: The artifact's explicit cap on the local batch (``APPLICATIONS``); others: the largest profiled.
MAX_LOCAL_BSZ = {"yolov3": 8.0}
TIMING = ("local_bsz", "step_time", "sync_time")
SCALABILITY = ("num_nodes", "num_replicas", *TIMING)

#: A profiled point: (num_nodes, num_replicas, local batch, step time s, sync time s).
Point = tuple[int, int, float, float, float]


@dataclass(frozen=True)
class AppProfile:
    """One application: iterations to its last epoch per global batch, and profiled step times."""

    name: str
    iterations: dict[int, float]
    placements: dict[str, list[Point]]
    points: list[Point]
    max_local_bsz: float


def _table(path: Path, numeric: tuple[str, ...], label: str | None = None) -> list[tuple[str, tuple[float, ...]]]:
    """``(label cell, numbers)`` per row; a label must be a placement (non-zero digits, one per node)."""
    cells = CellReader(path)
    out = []
    for line, row in read_csv(path, (*numeric, *([label] if label else [])), "a Pollux throughput profile CSV"):
        values = [cells.number(line, c, row[c]) for c in numeric]
        text = row[label].strip() if label else ""
        if label and not (text.isdigit() and "0" not in text):
            cells.error(line, label, f"{text!r} is not a placement (one non-zero digit per node)")
        elif None not in values:
            out.append((text, tuple(v for v in values if v is not None)))
    cells.finish()
    return out


def read_profile(folder: Path) -> AppProfile:
    """``folder`` = ``throughput_profiles/<app>``: its validation, placements and scalability files."""
    curves = {}
    for path in folder.glob("validation-*.csv"):
        batch = path.stem.removeprefix("validation-")
        if batch.isdigit():
            curves[int(batch)] = [values[0] for _, values in _table(path, ("iteration",))]
    if not curves or not all(curves.values()):
        raise PackgapError(f"{folder}: needs validation-<batch>.csv files with an iteration column and rows")
    last = min(len(c) for c in curves.values()) - 1
    placements: dict[str, list[Point]] = defaultdict(list)
    for text, (local, step, sync) in _table(folder / "placements.csv", TIMING, "placement"):
        placements[text].append((len(text), sum(int(d) for d in text), local, step, sync))
    if not placements:
        raise PackgapError(f"{folder / 'placements.csv'}: no rows")
    points = [p for rows in placements.values() for p in rows]
    for _, (nodes, replicas, local, step, sync) in _table(folder / "scalability.csv", SCALABILITY):
        points.append((int(nodes), int(replicas), local, step, sync))
    return AppProfile(
        folder.name,
        {b: c[last] for b, c in sorted(curves.items())},
        dict(placements),
        points,
        MAX_LOCAL_BSZ.get(folder.name, max(p[2] for rows in placements.values() for p in rows)),
    )


def placement_of(replicas: int) -> str:
    """Replicas packed into nodes of :data:`GPUS_PER_NODE`, as the smallest rotation (6 -> ``24``)."""
    nodes = [GPUS_PER_NODE] * (replicas // GPUS_PER_NODE) + [replicas % GPUS_PER_NODE] * bool(replicas % GPUS_PER_NODE)
    return "".join(str(n) for n in min(nodes[i:] + nodes[:i] for i in range(len(nodes))))


def _linear(points: list[Point], local: float) -> tuple[float, float]:
    """Step and sync time at ``local``, linear between profiled local batches (means of repeats)."""
    by_local: dict[float, list[Point]] = defaultdict(list)
    for p in points:
        by_local[p[2]].append(p)
    xs = sorted(by_local)
    step = [float(np.mean([p[3] for p in by_local[x]])) for x in xs]
    sync = [float(np.mean([p[4] for p in by_local[x]])) for x in xs]
    return float(np.interp(local, xs, step)), float(np.interp(local, xs, sync))


def step_times(profile: AppProfile, replicas: int, local: float) -> tuple[float, float]:
    """(step, sync) seconds of one iteration at ``replicas`` GPUs and local batch ``local``."""
    placement = placement_of(replicas)
    if placement in profile.placements:
        return _linear(profile.placements[placement], local)
    near = min({p[1] for p in profile.points}, key=lambda r: (abs(r - replicas), r))
    candidates = [p for p in profile.points if p[1] == near]
    nodes = min({p[0] for p in candidates}, key=lambda n: (abs(n - len(placement)), n))
    return _linear([p for p in candidates if p[0] == nodes], local)


def iterations(profile: AppProfile, batch: int) -> float:
    """Iterations to the last epoch at global batch ``batch`` (linear between profiled sizes)."""
    sizes = sorted(profile.iterations)
    if not sizes[0] <= batch <= sizes[-1]:
        raise PackgapError(f"{profile.name}: batch size {batch} is outside the profiled {sizes[0]}..{sizes[-1]}")
    return float(np.interp(batch, sizes, [profile.iterations[b] for b in sizes]))


def standalone_jct(profile: AppProfile, replicas: int, batch: int) -> float:
    """Seconds a job of ``replicas`` GPUs and global batch ``batch`` runs alone (module docstring)."""
    local = math.ceil(batch / replicas - 1e-8)
    accum = math.ceil(local / profile.max_local_bsz - 1e-8) - 1
    atomic = math.ceil(local / (accum + 1) - 1e-8)
    step, sync = step_times(profile, replicas, atomic)
    return iterations(profile, batch) * (step + accum * (step - sync))
