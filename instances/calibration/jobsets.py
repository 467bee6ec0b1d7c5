"""Job sets for the calibration family: GIMBAL Table 3 (JC1-JC8) and a seeded generator.

Both place jobs by the rules of section 5.1: J_max on GPUs 0..W-1 and every other job, largest
first, on the next free block of J_max's GPUs. World sizes are powers of two and blocks are
taken in decreasing size, so each block is aligned to its size and every job sits on the
fewest nodes (``gpus_per_node`` a power of two).

A job's remaining steps come from its remaining *solo* time: steps = hours x 3600 / (c + b / v)
with the per-worker batch b of the anchor table; its deadline is now + lambda x solo time.
Section 7.1 draws lambda in [1.5, 2.5] for a job's whole duration from its submission; a set
being calibrated has already spent part of that slack queueing and running, so the generator
draws lambda for the remaining work in [1.0, 2.0] (with 1.5 or more hardly any packed job is
late and the deadline objective is 0 everywhere).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from packgap.calibration import CalibrationInstance, Job, ModelProfile, PairSpeed, ThroughputModel
from packgap.calibration.throughput import DEFAULT_GRANULARITY
from packgap.errors import PackgapError, UnknownNameError
from packgap.instances.calibration.anchors import bundled

TABLE3 = Path(__file__).with_name("table3.json")
#: Default concavity exponent of the share factor (an assumption; see packgap.calibration.speed).
ALPHA = 0.5
SOURCE = (
    "packgap parametric LGRR model (packgap.calibration.speed); anchors from lucid/, pal/ and gavel/ traces "
    "(instances/calibration/anchors.py); share curve between the anchors assumed"
)


@dataclass(frozen=True)
class JobSpec:
    """A job to place: model, world size, remaining solo hours and deadline factor lambda."""

    model: str
    world_size: int
    solo_hours: float
    slack: float


def throughput_model(
    models: Sequence[str], alpha: float = ALPHA, table: Mapping[str, Any] | None = None
) -> ThroughputModel:
    """The anchors of ``models`` (profiles and every ordered pair among them) from ``table``."""
    table = bundled() if table is None else table
    wanted = sorted(set(models))
    known = {m["name"]: m for m in table["models"]}
    missing = [m for m in wanted if m not in known]
    if missing:
        raise UnknownNameError("model (no anchors)", missing[0], list(known))
    profiles = tuple(
        ModelProfile(m, known[m]["speed"], known[m]["fixed_cost"], known[m]["utilization"], known[m]["source"])
        for m in wanted
    )
    pairs = tuple(
        PairSpeed(p["model"], p["partner"], p["speed"], p["source"])
        for p in table["pairs"]
        if p["model"] in wanted and p["partner"] in wanted
    )
    return ThroughputModel(alpha, profiles, pairs, SOURCE)


def per_worker_batch(model: str) -> int:
    return int(next(m["batch"] for m in bundled()["models"] if m["name"] == model))


def place(
    name: str,
    specs: Sequence[JobSpec],
    objective: str,
    gpus_per_node: int = 2,
    alpha: float = ALPHA,
    ids: Sequence[str] | None = None,
    now: float = 0.0,
    granularity: float = DEFAULT_GRANULARITY,
) -> CalibrationInstance:
    """A job set with ``specs[0]`` as J_max and the others packed onto its GPUs, largest first."""
    big = specs[0].world_size
    if any(s.world_size > big for s in specs[1:]) or sum(s.world_size for s in specs[1:]) > big:
        raise PackgapError(f"{name}: the other jobs need more GPUs than J_max's {big}")
    tm = throughput_model([s.model for s in specs], alpha)
    order = [0, *sorted(range(1, len(specs)), key=lambda i: -specs[i].world_size)]
    ids = ids or [f"j{i}" for i in range(len(specs))]
    jobs = []
    offset = 0
    for i in order:
        spec = specs[i]
        gpus = tuple(range(big)) if i == 0 else tuple(range(offset, offset + spec.world_size))
        offset += 0 if i == 0 else spec.world_size
        prof = tm.profile(spec.model)
        b = per_worker_batch(spec.model)
        solo_s = spec.solo_hours * 3600.0
        steps = float(max(1, round(solo_s / (prof.fixed_cost + b / prof.speed))))
        jobs.append(Job(ids[i], spec.model, b * spec.world_size, steps, now + spec.slack * solo_s, gpus))
    nodes = max(1, -(-big // gpus_per_node))
    return CalibrationInstance(name, objective, now, granularity, nodes, gpus_per_node, tm, tuple(jobs))


def table3_sets() -> dict[str, list[tuple[str, int]]]:
    data = json.loads(TABLE3.read_text())
    return {k: [(m, int(n)) for m, n in v] for k, v in data["sets"].items()}


def table3(
    job_set: str, objective: str = "jct", alpha: float = ALPHA, granularity: float = DEFAULT_GRANULARITY
) -> CalibrationInstance:
    """JC1..JC8 of GIMBAL Table 3 (assumptions of ``table3.json``: 2 h / 1 h left, lambda = 2)."""
    sets = table3_sets()
    if job_set not in sets:
        raise UnknownNameError("job set", job_set, list(sets))
    specs = [JobSpec(m, n, 2.0 if i == 0 else 1.0, 2.0) for i, (m, n) in enumerate(sets[job_set])]
    return place(job_set, specs, objective, alpha=alpha, granularity=granularity)


def _sizes(rng: np.random.Generator, jobs: int, big: int) -> list[int]:
    """World sizes (powers of two) of the jobs other than J_max; they fit on J_max's GPUs."""
    if jobs == 2 and rng.random() < 0.25:
        return [big]
    sizes, left = [], big
    for r in range(jobs - 1, 0, -1):
        cap = min(big // 2, left - (r - 1))
        options = [1 << k for k in range(cap.bit_length()) if (1 << k) <= cap]
        size = int(rng.choice(options))
        sizes.append(size)
        left -= size
    return sizes


def generate(
    jobs: int,
    seed: int,
    objective: str = "jct",
    gpus_per_node: int = 2,
    alpha: float = ALPHA,
    granularity: float = DEFAULT_GRANULARITY,
) -> CalibrationInstance:
    """A random job set of ``jobs`` jobs (seeded): Table 1 models, 0.5-4 h of solo work left."""
    if jobs < 1:
        raise PackgapError(f"--jobs must be >= 1, got {jobs}")
    if gpus_per_node & (gpus_per_node - 1):
        raise PackgapError(f"--gpus-per-node must be a power of two, got {gpus_per_node}")
    rng = np.random.default_rng(seed)
    least = max(2, 1 << max(0, jobs - 2).bit_length())
    big = least * int(rng.choice([1, 2])) if jobs > 1 else int(rng.choice([1, 2, 4]))
    models = [m["name"] for m in bundled()["models"]]
    sizes = [big, *_sizes(rng, jobs, big)] if jobs > 1 else [big]
    specs = [
        JobSpec(
            str(rng.choice(models)), n, round(float(rng.uniform(0.5, 4.0)), 3), round(float(rng.uniform(1.0, 2.0)), 3)
        )
        for n in sizes
    ]
    return place(f"calibration-n{jobs}-s{seed}", specs, objective, gpus_per_node, alpha, granularity=granularity)
