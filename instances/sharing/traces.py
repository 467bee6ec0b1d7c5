"""Sharing instances from public traces: Pollux workloads, Philly jobs, measured co-location.

* ``pollux``: a Pollux workload CSV (name, time, application, num_replicas, batch_size) on
  the simulated 16 x 4-GPU cluster. Per-GPU batch B = ceil(global batch / replicas).
  Pollux ends a job after its application's ``max_epochs`` (bert 2, cifar10 100, ncf 10,
  imagenet 90, deepspeech2 80, yolov3 50, PROVENANCE); iterations = epochs x dataset size /
  global batch, with the public datasets' training-set sizes of :data:`DATASET_SIZE` (the
  artifact's own counts are not in the copied data). Models are fitted to the folder's
  throughput profiles (:func:`packgap.instances.sharing.profiles.fit_pollux`).
* ``philly``: Philly's job summary (timestamp, duration, num_gpus). As Pollux does, jobs with
  duration >= 60 s and GPU-time < 1,000 GPU-hours, sampled (seeded) from an 8-hour window,
  by default the busiest one (section VI-A: "the busiest period"); the task by Pollux's
  GPU-time rule (packgap.instances.sharing.generator) and iterations = duration / solo t_iter.
* xi from measured co-location (``xi_source``): ``gavel`` (pairwise throughputs of one GPU
  type: xi = isolated / co-located throughput, averaged over the batch sizes of a job type,
  infeasible pairs skipped) or ``lucid`` (colocate_info.csv: xi = 1 / normalised speed,
  averaged per model pair); Pollux's tasks map to the nearest profiled job types
  (:data:`GAVEL_TYPES`, :data:`LUCID_MODELS`). Measured speed-ups (xi < 1, noise) are
  clipped to 1; pairs without data get the median of the others. ``global`` uses one xi.
"""

from __future__ import annotations

import ast
import math
import statistics
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

import numpy as np

from packgap import jsonio
from packgap.errors import PackgapError
from packgap.instances.csvfile import cell, iso_time, number, read_csv, whole
from packgap.instances.sharing.generator import _task
from packgap.instances.sharing.profiles import DEFAULT_BATCH, DEFAULT_PROFILES, fit_pollux
from packgap.instances.traces import traces_dir
from packgap.sharing import Cluster, Interference, Job, ModelProfile, SharingInstance
from packgap.sharing.perf import iteration_time

MAX_EPOCHS = {"bert": 2, "cifar10": 100, "ncf": 10, "imagenet": 90, "deepspeech2": 80, "yolov3": 50}
#: Training-set sizes: SQuAD v1.1, CIFAR-10, MovieLens-1M, ImageNet-1k, LibriSpeech clean-100, VOC07+12.
DATASET_SIZE = {
    "bert": 87_599,
    "cifar10": 50_000,
    "ncf": 994_169,
    "imagenet": 1_281_167,
    "deepspeech2": 28_539,
    "yolov3": 16_551,
}
GAVEL_TYPES = {
    "bert": "Transformer",
    "cifar10": "ResNet-18",
    "deepspeech2": "LM",
    "imagenet": "ResNet-50",
    "ncf": "Recommendation",
    "yolov3": "CycleGAN",
}
LUCID_MODELS = {
    "bert": "LSTM",
    "cifar10": "ResNet18",
    "deepspeech2": "LSTM",
    "imagenet": "EfficientNet",
    "ncf": "NeuMF",
    "yolov3": "VGG",
}
XI_SOURCES = ("gavel", "lucid", "global")


def _complete(found: Mapping[tuple[str, str], list[float]], source: str) -> Interference:
    means = {k: max(1.0, statistics.fmean(v)) for k, v in found.items() if v}
    if not means:
        raise PackgapError(f"{source}: no co-location measurement matches the tasks")
    fill = statistics.median(means.values())
    pairs = {(a, b): round(means.get((a, b), fill), 4) for a in MAX_EPOCHS for b in MAX_EPOCHS}
    return Interference(round(fill, 4), pairs, source)


def gavel_xi(path: Path, gpu: str = "v100") -> Interference:
    """xi per task pair from Gavel's pairwise throughput JSON (one worker type)."""
    table = jsonio.read(path)
    if gpu not in table:
        raise PackgapError(f"{path}: no worker type {gpu!r} (known: {', '.join(table)})")
    task_of = {v: k for k, v in GAVEL_TYPES.items()}

    def task(key: str) -> str | None:
        name, scale = ast.literal_eval(key)
        return None if scale != 1 else task_of.get(name.split(" (")[0])

    found: dict[tuple[str, str], list[float]] = {}
    for key, row in table[gpu].items():
        own = task(key)
        if own is None:
            continue
        solo = row["null"]
        for other, pair in row.items():
            partner = None if other == "null" else task(other)
            if partner is not None and pair[0] > 0 and solo > 0:
                found.setdefault((own, partner), []).append(solo / pair[0])
    return _complete(found, f"gavel {path.name} ({gpu}): isolated / co-located throughput")


def lucid_xi(path: Path) -> Interference:
    """xi per task pair from Lucid's colocate_info.csv (1 / normalised co-located speed)."""
    model_of: dict[str, list[str]] = {}
    for task, model in LUCID_MODELS.items():
        model_of.setdefault(model, []).append(task)
    found: dict[tuple[str, str], list[float]] = {}
    for line, row in read_csv(path, ("model1", "model2", "speed1", "speed2"), "Lucid's colocate_info.csv"):
        for me, other in (("1", "2"), ("2", "1")):
            speed = number(row[f"speed{me}"], cell(path, line, f"speed{me}"))
            for a in model_of.get(row[f"model{me}"], []):
                for b in model_of.get(row[f"model{other}"], []):
                    if speed > 0:
                        found.setdefault((a, b), []).append(1.0 / speed)
    return _complete(found, f"lucid {path.name}: 1 / co-located speed")


def interference(source: str, xi: float, traces: str | Path | None) -> Interference:
    if source not in XI_SOURCES:
        raise PackgapError(f"--xi-source must be one of {', '.join(XI_SOURCES)}, got {source!r}")
    if source == "gavel":
        return gavel_xi(traces_dir(traces) / "gavel" / "simulation_throughputs.json")
    if source == "lucid":
        return lucid_xi(traces_dir(traces) / "lucid" / "colocate_info.csv")
    if xi < 1:
        raise PackgapError(f"--xi must be >= 1, got {xi}")
    return Interference(xi, {}, f"global xi = {xi:g}")


def from_pollux(
    path: Path,
    *,
    profiles: Path | None = None,
    xi_source: str = "gavel",
    xi: float = 1.5,
    traces: str | Path | None = None,
    nodes: int = 16,
    gpus_per_node: int = 4,
) -> SharingInstance:
    jobs = []
    columns = ("name", "time", "application", "num_replicas", "batch_size")
    for line, row in read_csv(path, columns, "a Pollux workload CSV"):
        app = row["application"]
        if app not in MAX_EPOCHS:
            raise PackgapError(f"{cell(path, line, 'application')}: unknown application {app!r}")
        replicas, batch = (whole(row[c], cell(path, line, c)) for c in ("num_replicas", "batch_size"))
        arrival = number(row["time"], cell(path, line, "time"))
        iterations = max(1, math.ceil(MAX_EPOCHS[app] * DATASET_SIZE[app] / batch))
        jobs.append(Job(row["name"], arrival, replicas, iterations, math.ceil(batch / replicas), app))
    models: dict[str, ModelProfile] = fit_pollux(profiles or traces_dir(traces) / "pollux" / "throughput_profiles")
    first = min((j.arrival for j in jobs), default=0.0)
    jobs = [Job(j.id, j.arrival - first, j.gpus, j.iterations, j.batch, j.model) for j in jobs]
    return SharingInstance(
        f"pollux-{path.stem}",
        Cluster(nodes, gpus_per_node, 11.0),
        models,
        interference(xi_source, xi, traces),
        tuple(jobs),
        f"pollux workload {path.parent.name}/{path.name}; profiles fitted to Pollux's throughput_profiles",
    )


def busiest_window(times: np.ndarray, hours: float) -> float:
    """Start of the ``hours``-long window holding the most submissions (two pointers)."""
    times = np.sort(times)
    ends = np.searchsorted(times, times + hours * 3600.0, side="left")
    return float(times[int(np.argmax(ends - np.arange(len(times))))])


#: Jobs the Philly builder samples when none are named (section VI-A's 240), or all of a
#: smaller window's.
DEFAULT_JOBS = 240


def from_philly(
    path: Path,
    *,
    jobs: int | None = None,
    seed: int = 0,
    hours: float = 8.0,
    start: str | None = None,
    xi_source: str = "gavel",
    xi: float = 1.5,
    traces: str | Path | None = None,
    nodes: int = 16,
    gpus_per_node: int = 4,
) -> SharingInstance:
    begin_at = None if start is None else iso_time(start, "--start").timestamp()
    rows = []
    for line, row in read_csv(path, ("timestamp", "duration", "num_gpus"), "a Philly job summary (philly.csv)"):
        dur, g = (
            number(row["duration"], cell(path, line, "duration")),
            whole(row["num_gpus"], cell(path, line, "num_gpus")),
        )
        if dur >= 60 and dur * g < 1000 * 3600 and g <= nodes * gpus_per_node:
            rows.append((iso_time(row["timestamp"], cell(path, line, "timestamp")).timestamp(), dur, g))
    if not rows:
        raise PackgapError(f"{path}: no job passes the filter (duration >= 60 s, < 1,000 GPU-hours, fits the cluster)")
    times = np.array([r[0] for r in rows])
    begin = busiest_window(times, hours) if begin_at is None else begin_at
    window = [r for r in rows if begin <= r[0] < begin + hours * 3600]
    if jobs is None:
        jobs = min(DEFAULT_JOBS, len(window))
    if len(window) < jobs:
        raise PackgapError(
            f"{path}: the {hours:g}-hour window from {start or 'the busiest start'} has {len(window)} jobs"
        )
    rng = np.random.default_rng(seed)
    picked = sorted(window[i] for i in rng.choice(len(window), size=jobs, replace=False))
    out = []
    for i, (ts, dur, g) in enumerate(picked):
        task = _task(rng, dur * g / 3600)
        b = DEFAULT_BATCH[task]
        t_iter = iteration_time(DEFAULT_PROFILES[task], b, b, g)
        out.append(Job(f"p{i}", round(ts - picked[0][0], 3), g, max(1, round(dur / t_iter)), b, task))
    return SharingInstance(
        f"philly-{jobs}-s{seed}",
        Cluster(nodes, gpus_per_node, 11.0),
        dict(DEFAULT_PROFILES),
        interference(xi_source, xi, traces),
        tuple(out),
        f"philly {path.name}: {jobs} of {len(window)} jobs in {hours:g} h from {datetime.fromtimestamp(begin)}",
    )
