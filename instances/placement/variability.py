"""Per-GPU, per-class PM-scores (slowdown factors) for PAL rounds (section IV-C).

Three sources:

* :func:`sample_factors` — the paper's method: "we discretely, randomly sample this
  profiling data without repetition to obtain N PM penalty values for each class and assign
  them to each GPU" (section IV-C), from profile files normalised to their median GPU.
* :func:`artifact_factors` — the PAL artifact's own draw (``random.seed(42)``, then per GPU
  and per class one ``random.choice``, with repetition), which rebuilds
  ``blox-sim-inputs/gpu_perfvar_64gpu_seed42.csv`` bit for bit (that folder's PROVENANCE.md).
* :func:`synthetic_factors` — no files needed: a log-normal body around the median GPU and
  a uniform slow tail, per class, calibrated to the statistics the paper states (ResNet-50
  "22% geomean, up to 3.5x", PageRank "1%", section II-A) and to the Longhorn profiles'
  spread, measured here (median-normalised: resnet q05-q95 0.95-1.13, max 3.57, 1.4% beyond
  3 sigma; bert 0.98-1.03, max 1.30; pagerank 0.97-1.00, max 1.005).

Profile files (``variability/*-agg.csv``) hold one row per (job, GPU) run; the ``perf``
column is the run's duration. ``profiles.json`` maps class names to files.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.csvfile import cell, number, read_csv


@dataclass(frozen=True)
class ClassProfile:
    """A synthetic class: log-normal body (sigma ``spread``) and a share ``tail`` of GPUs
    slowed uniformly between ``tail_low`` and ``tail_max`` times the median."""

    spread: float
    tail: float
    tail_low: float
    tail_max: float


#: Classes A (compute-bound, ResNet-50-like), B (BERT-like), C (memory-bound, PageRank-like).
SYNTHETIC_CLASSES: Mapping[str, ClassProfile] = {
    "A": ClassProfile(spread=0.05, tail=0.015, tail_low=1.3, tail_max=3.5),
    "B": ClassProfile(spread=0.015, tail=0.004, tail_low=1.1, tail_max=1.3),
    "C": ClassProfile(spread=0.01, tail=0.0, tail_low=1.0, tail_max=1.0),
}


def read_profile(path: Path) -> np.ndarray:
    """Median-normalised ``perf`` of every row of one profile file, in file order."""
    values = [
        number(row["perf"], cell(path, line, "perf"))
        for line, row in read_csv(path, ("perf",), "a variability profile")
    ]
    perf = np.asarray(values)
    if len(perf) == 0 or not np.all(perf > 0):
        raise PackgapError(f"{path}: needs at least one row and positive perf values")
    return perf / np.median(perf)


def read_profiles(variability_dir: Path, mapping: str = "profiles.json") -> dict[str, np.ndarray]:
    """Every class of ``profiles.json`` (``classA`` -> file, matched by file name) read from
    ``variability_dir``, keyed by class name without the ``class`` prefix (``A``)."""
    path = variability_dir / mapping
    try:
        classes = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise PackgapError(f"cannot read {path}: {exc}") from None
    return {c.removeprefix("class"): read_profile(variability_dir / Path(f).name) for c, f in classes.items()}


def sample_factors(profiles: Mapping[str, np.ndarray], gpus: int, seed: int) -> dict[str, tuple[float, ...]]:
    """Section IV-C: ``gpus`` values per class drawn without repetition, seeded."""
    rng = np.random.default_rng(seed)
    out = {}
    for cls, values in profiles.items():
        if gpus > len(values):
            raise PackgapError(
                f"class {cls}: {gpus} GPUs but only {len(values)} profiled runs to sample without repetition"
            )
        out[cls] = tuple(float(v) for v in rng.choice(values, size=gpus, replace=False))
    return out


def artifact_factors(profiles: Mapping[str, np.ndarray], gpus: int, seed: int = 42) -> dict[str, tuple[float, ...]]:
    """The PAL artifact's table: ``random.seed(seed)``, then for each GPU and each class in
    ``profiles``' order one ``random.choice`` over the class's rows (with repetition)."""
    draw = random.Random(seed)
    rows = {c: v.tolist() for c, v in profiles.items()}
    table: dict[str, list[float]] = {c: [] for c in profiles}
    for _ in range(gpus):
        for c in profiles:
            table[c].append(draw.choice(rows[c]))
    return {c: tuple(v) for c, v in table.items()}


def synthetic_factors(
    gpus: int, seed: int, classes: Mapping[str, ClassProfile] = SYNTHETIC_CLASSES
) -> dict[str, tuple[float, ...]]:
    """Synthetic per-GPU factors, normalised so each class's median GPU scores 1."""
    rng = np.random.default_rng(seed)
    out = {}
    for cls, p in classes.items():
        values = rng.lognormal(0.0, p.spread, size=gpus)
        slow = rng.random(gpus) < p.tail
        values[slow] = rng.uniform(p.tail_low, p.tail_max, size=int(slow.sum()))
        out[cls] = tuple(float(v) for v in values / np.median(values))
    return out
