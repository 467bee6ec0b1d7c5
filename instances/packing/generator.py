"""Seeded generator of packing instances following CUCKOO section 4.1.

* Models and batch sizes: Table 8 (A2C, DQN, BERT, GPT-2, VGG19, VGG16, ResNet18,
  ResNet50), drawn uniformly.
* Stage profiles: derived from Muri's measured per-iteration resource times
  (``Rivendile/Muri`` ``simulator/jobs.py``, the same numbers as
  ``traces/muri/muri_job_type_profiles_DERIVED.csv``; V100, Muri's batch size) for the
  seven models both papers use. ``resource_time_0`` is data loading ``S``,
  ``resource_time_1`` GPU time split into ``F`` and ``B`` by :data:`FORWARD_SHARE` (backward
  costs about twice the forward), ``resource_time_2`` communication ``C`` (by GPU count).
  ResNet50 is not in Muri: ResNet18's profile with GPU time x 2.3 (FLOPs ratio) and
  communication x 2.2 (parameter ratio). ``S`` and GPU time scale linearly with the batch
  size against Muri's; ``C`` (gradient size) does not.
* GPU types: Table 7 (A800 x 2, RTX 4090 x 8, A10 x 6). Per-type factors against the
  V100 are assumptions of this generator, not published numbers (:data:`GPU_SPEED` divides
  ``F`` and ``B``; :data:`COMM_FACTOR` multiplies ``C``: NVLink on the A800 node, PCIe
  without peer-to-peer on the 4090 node).
* Arrivals: Helios-like bursts (Figure 8): a fifth of the jobs (100 of 521 in the paper) in
  the first 1,000 s, then 10-40 new jobs per 1,000 s window, uniform within a window.
* Lengths: standalone duration on the fastest type log-normal around
  ``duration_median_s`` (sigma 0.8, clipped to [60 s, 12 h]), rounded to iterations. The
  default 180 s offers the Table 7 cluster about 1.3 times the work it can serve while
  jobs arrive (a "resource-constrained cluster", section 4.1); 120 s gives about 0.9.
  The paper's "10-40 new jobs every 1,000 s" (read literally here: uniform) spans
  ~18,000 s for 521 jobs, not the 30,000 s it also states.
* Deadlines: eq. 15, (deadline - arrival) / fastest standalone time ~ N(8, 2), floored at 1.
* Demand: every job on 2 GPUs ("each job is assumed to run on 2 GPUs"); ``demands`` gives
  a mix instead, e.g. ``{1: 0.5, 2: 0.3, 4: 0.2}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from packgap.errors import PackgapError
from packgap.gpus import GpuSpec, GpuType, type_factor
from packgap.packing import Job, PackingInstance
from packgap.packing.instance import Interleaving, Objective
from packgap.packing.interleave import Member, StageProfile, SyncRule
from packgap.packing.timeline import iteration_ms

#: CUCKOO Table 7.
DEFAULT_GPU_TYPES: tuple[tuple[str, int], ...] = (("A800", 2), ("RTX4090", 8), ("A10", 6))
#: GPU compute speed against Muri's V100 (assumed).
GPU_SPEED = {"A800": 2.5, "RTX4090": 1.8, "A10": 1.0, "V100": 1.0}
#: Communication time factor against Muri's V100 testbed (assumed).
COMM_FACTOR = {"A800": 0.5, "RTX4090": 1.5, "A10": 1.2, "V100": 1.0}
#: Share of GPU time spent in the forward pass.
FORWARD_SHARE = 1.0 / 3.0

#: Muri's resource times (ms) by model and GPU count: (S, GPU, C), at MURI_BATCH.
MURI_PROFILES: dict[str, dict[int, tuple[float, float, float]]] = {
    "a2c": {1: (514, 14, 0), 2: (504, 14, 0.5), 4: (502, 10, 0.3), 8: (502, 14, 0.4)},
    "dqn": {1: (446, 8, 0), 2: (441, 8, 0.6), 4: (440, 8, 0.4), 8: (435, 8, 0.5)},
    "bert": {1: (0.5, 160, 0), 2: (0.5, 163, 18), 4: (0.5, 163, 18), 8: (0.5, 167, 59)},
    "gpt2": {1: (0.6, 410, 0), 2: (0.7, 416, 40), 4: (0.6, 413, 20), 8: (0.6, 419, 49)},
    "vgg16": {1: (117, 68, 0), 2: (114, 72, 40), 4: (82, 72, 67), 8: (82, 75, 66)},
    "vgg19": {1: (114, 80, 0), 2: (115, 83, 41), 4: (84, 85, 73), 8: (82, 88, 60)},
    "resnet18": {1: (711, 110, 0), 2: (687, 110, 95), 4: (723, 113, 73), 8: (784, 117, 77)},
}
MURI_BATCH = {"a2c": 64, "dqn": 128, "bert": 4, "gpt2": 4, "vgg16": 16, "vgg19": 16, "resnet18": 128}
#: CUCKOO Table 8: model -> batch sizes.
TABLE8 = {
    "a2c": (8, 16, 32),
    "dqn": (8, 16, 32),
    "bert": (2, 4, 8),
    "gpt2": (2, 4),
    "vgg19": (8, 16, 32),
    "vgg16": (8, 16, 32),
    "resnet18": (16, 32, 64),
    "resnet50": (16, 32, 64),
}
RESNET50_GPU, RESNET50_COMM = 2.3, 2.2


def sync_rule(model: str) -> SyncRule:
    """Section 3.2.1: BERT and GPT synchronise before communication; VGG, ResNet (and here
    the RL models, which the paper does not classify) before the next forward."""
    return "before_communication" if model.startswith(("bert", "gpt")) else "before_forward"


def muri_stages(model: str, gpus: int) -> tuple[float, float, float]:
    """(S, GPU, C) in ms on the V100 at Muri's batch; the nearest measured GPU count."""
    base = "resnet18" if model == "resnet50" else model
    table = MURI_PROFILES[base]
    count = min(table, key=lambda c: (abs(c - gpus), c))
    s, gpu, c = table[count]
    if model == "resnet50":
        gpu, c = gpu * RESNET50_GPU, c * RESNET50_COMM
    return s, gpu, c


def stage_profile(s: float, gpu: float, c: float, gpu_type: GpuSpec) -> StageProfile:
    """V100 resource times -> the stage profile on ``gpu_type`` (module docstring); a type the
    user names with a factor runs its GPU stages that much faster than a V100 and
    communicates like a V100."""
    compute = gpu / type_factor(gpu_type, GPU_SPEED, "GPU speed against the V100")
    comm = COMM_FACTOR.get(gpu_type[0], 1.0) if len(gpu_type) == 2 else 1.0
    times = (s, compute * FORWARD_SHARE, compute * (1 - FORWARD_SHARE), c * comm)
    # Microsecond resolution, so that the written file holds exactly these numbers.
    return StageProfile(*(round(t, 3) for t in times))


def helios_arrivals(rng: np.random.Generator, jobs: int, window_s: float = 1000.0) -> np.ndarray:
    """Sorted arrival times (s): a fifth of the jobs in the first window, then 10-40 per window."""
    first = max(1, round(jobs * 100 / 521))
    times = list(rng.uniform(0.0, window_s, size=min(first, jobs)))
    window = 1
    while len(times) < jobs:
        batch = min(int(rng.integers(10, 41)), jobs - len(times))
        times += list(rng.uniform(window * window_s, (window + 1) * window_s, size=batch))
        window += 1
    return np.sort(np.array(times))


def fastest_iteration_ms(
    profiles: Sequence[StageProfile], sync: SyncRule, interleaving: Interleaving, interference: float
) -> float:
    """A job's standalone iteration time (ms) on its fastest GPU type."""
    return min(iteration_ms([Member(p, sync)], interleaving, interference) for p in profiles)


def eq15_deadline(rng: np.random.Generator, arrival: float, fastest_s: float) -> float:
    """Eq. 15: arrival + max(1, N(8, 2)) x the fastest standalone execution time (3 decimals)."""
    return round(arrival + max(1.0, float(rng.normal(8.0, 2.0))) * fastest_s, 3)


def table8_model(rng: np.random.Generator) -> tuple[str, int]:
    """A model and one of its batch sizes, each drawn uniformly from Table 8 (two draws)."""
    models = sorted(TABLE8)
    model = models[int(rng.integers(len(models)))]
    return model, TABLE8[model][int(rng.integers(len(TABLE8[model])))]


@dataclass(frozen=True)
class JobSpec:
    """What a job is made from: ``duration_s`` is its standalone duration on its fastest type;
    ``iterations`` and ``deadline``, when given, are kept instead of derived and drawn."""

    id: str
    arrival: float
    gpus: int
    duration_s: float
    model: str
    batch: int
    iterations: int | None = None
    deadline: float | None = None


def table8_job(
    rng: np.random.Generator,
    spec: JobSpec,
    gpu_types: Sequence[GpuSpec],
    interleaving: Interleaving,
    interference: float,
) -> Job:
    """The job of ``spec``: stage profiles per GPU type, ``duration_s`` rounded to iterations
    (at least 1) and an eq. 15 deadline (one draw)."""
    s, gpu, c = muri_stages(spec.model, spec.gpus)
    scale = spec.batch / MURI_BATCH["resnet18" if spec.model == "resnet50" else spec.model]
    profiles = tuple(stage_profile(s * scale, gpu * scale, c, t) for t in gpu_types)
    sync = sync_rule(spec.model)
    fastest = fastest_iteration_ms(profiles, sync, interleaving, interference) / 1000.0
    iterations = max(1, round(spec.duration_s / fastest)) if spec.iterations is None else spec.iterations
    deadline = eq15_deadline(rng, spec.arrival, iterations * fastest) if spec.deadline is None else spec.deadline
    return Job(spec.id, spec.arrival, deadline, spec.gpus, iterations, f"{spec.model}-bs{spec.batch}", sync, profiles)


def generate(
    jobs: int,
    seed: int,
    *,
    gpu_types: Sequence[GpuSpec] = DEFAULT_GPU_TYPES,
    demands: Mapping[int, float] | None = None,
    duration_median_s: float = 180.0,
    objective: Objective = "weighted",
    interleaving: Interleaving = "am",
    interference: float = 2.0,
) -> PackingInstance:
    """A section 4.1 workload of ``jobs`` jobs; same seed, same instance."""
    if jobs < 1:
        raise PackgapError(f"jobs must be >= 1, got {jobs}")
    mix = dict(demands or {2: 1.0})
    if any(d < 1 for d in mix) or any(p < 0 for p in mix.values()) or sum(mix.values()) <= 0:
        raise PackgapError(f"demands must map GPU counts >= 1 to weights >= 0, got {mix}")
    if max(mix) > max(spec[1] for spec in gpu_types):
        raise PackgapError(f"demand {max(mix)} exceeds every GPU type's count")
    rng = np.random.default_rng(seed)
    arrivals = helios_arrivals(rng, jobs)
    weights = np.array([mix[d] for d in sorted(mix)], dtype=float)
    result = []
    for i, arrival in enumerate(arrivals):
        drawn = table8_model(rng)
        gpus = sorted(mix)[int(rng.choice(len(mix), p=weights / weights.sum()))]
        target = float(np.clip(rng.lognormal(np.log(duration_median_s), 0.8), 60.0, 43200.0))
        start = round(float(arrival), 3)
        spec = JobSpec(f"j{i:04d}", start, gpus, target, *drawn)
        result.append(table8_job(rng, spec, gpu_types, interleaving, interference))
    return PackingInstance(
        name=f"packing-n{jobs}-s{seed}",
        gpu_types=tuple(GpuType(spec[0], spec[1]) for spec in gpu_types),
        jobs=tuple(result),
        objective=objective,
        interleaving=interleaving,
        interference=interference,
    )
