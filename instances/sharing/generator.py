"""Seeded generator of sharing workloads calibrated to SJF-BSBF's simulation (section VI-A).

Cluster: 16 nodes x 4 GPUs, 11 GB each (the 2080 Ti testbed scaled to the simulated 64
GPUs). Jobs arrive by a Poisson process over ``hours`` (Pollux samples an 8-hour window;
the paper's 240-job baseline is scaled 0.5x-2x to 120-480 jobs by keeping the window).
GPU counts follow Philly's mix with the paper's share of large jobs (> 4 GPUs: about 13 %,
read from Tables III-IV): 1, 2, 4, 8, 12, 16 GPUs with probabilities .62, .13, .12, .09,
.02, .02. Solo run times are log-normal (median ``duration_median_s``, sigma ``duration_sigma`` = 1.2, clipped
to [2 min, 12 h]); the task follows Pollux's rule on GPU-time (< 1 GPU-h: CIFAR10 or NCF;
< 10: DeepSpeech2 or BERT; < 100: YOLOv3; else ImageNet) and the iteration count is the
run time over the task's solo iteration time (eq. 7). Interference: one global xi when
``xi`` > 0 (Fig. 6b), else one xi per ordered task pair drawn from U(xi_low, xi_high).

``workload="physical"`` follows the testbed workload of section VI-B instead (Table II, 16
GPUs): two thirds of the jobs use 1, 2, 4 or 8 GPUs and one third 12 or 16; iterations are
log-uniform in [100, 5000]; the task is drawn uniformly.
"""

from __future__ import annotations

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.sharing.profiles import DEFAULT_BATCH, DEFAULT_PROFILES
from packgap.sharing import Cluster, Interference, Job, SharingInstance
from packgap.sharing.perf import iteration_time

GPU_CHOICES = (1, 2, 4, 8, 12, 16)
GPU_PROBS = (0.62, 0.13, 0.12, 0.09, 0.02, 0.02)
TASKS = tuple(DEFAULT_PROFILES)
WORKLOADS = ("simulation", "physical")


def _task(rng: np.random.Generator, gpu_hours: float) -> str:
    if gpu_hours < 1:
        return str(rng.choice(["cifar10", "ncf"]))
    if gpu_hours < 10:
        return str(rng.choice(["deepspeech2", "bert"]))
    return "yolov3" if gpu_hours < 100 else "imagenet"


def generate(
    jobs: int,
    seed: int,
    *,
    nodes: int = 16,
    gpus_per_node: int = 4,
    gpu_memory_gb: float = 11.0,
    hours: float = 8.0,
    duration_median_s: float = 1800.0,
    duration_sigma: float = 1.2,
    xi: float = 0.0,
    xi_low: float = 1.1,
    xi_high: float = 2.0,
    preemption_overhead_s: float = 0.0,
    workload: str = "simulation",
) -> SharingInstance:
    if jobs < 1:
        raise PackgapError(f"--jobs must be >= 1, got {jobs}")
    if not duration_sigma > 0:
        raise PackgapError(f"duration_sigma must be > 0, got {duration_sigma}")
    if xi != 0 and xi < 1:
        raise PackgapError(f"--xi must be >= 1 (or 0 for per-pair values), got {xi}")
    if not 1 <= xi_low <= xi_high:
        raise PackgapError(f"need 1 <= --xi-low <= --xi-high, got {xi_low}, {xi_high}")
    if workload not in WORKLOADS:
        raise PackgapError(f"--workload must be one of {', '.join(WORKLOADS)}, got {workload!r}")
    rng = np.random.default_rng(seed)
    total = nodes * gpus_per_node
    arrivals = np.sort(rng.uniform(0.0, hours * 3600.0, size=jobs))
    arrivals -= arrivals[0]
    gpus = rng.choice(GPU_CHOICES, size=jobs, p=GPU_PROBS)
    durations = np.clip(rng.lognormal(np.log(duration_median_s), duration_sigma, size=jobs), 120.0, 12 * 3600.0)
    if workload == "physical":
        large = rng.uniform(size=jobs) < 1 / 3
        gpus = np.where(large, rng.choice((12, 16), size=jobs), rng.choice((1, 2, 4, 8), size=jobs))
        counts = np.round(np.exp(rng.uniform(np.log(100), np.log(5000), size=jobs)))
        tasks = rng.choice(TASKS, size=jobs)
    out = []
    for i in range(jobs):
        g = int(min(gpus[i], total))
        task = str(tasks[i]) if workload == "physical" else _task(rng, durations[i] * g / 3600.0)
        batch = DEFAULT_BATCH[task]
        t_iter = iteration_time(DEFAULT_PROFILES[task], batch, batch, g)
        iterations = int(counts[i]) if workload == "physical" else max(1, round(float(durations[i]) / t_iter))
        out.append(Job(f"j{i}", round(float(arrivals[i]), 3), g, iterations, batch, task))
    pairs = {}
    if xi == 0:
        draws = rng.uniform(xi_low, xi_high, size=(len(TASKS), len(TASKS)))
        pairs = {(a, b): round(float(draws[i, k]), 4) for i, a in enumerate(TASKS) for k, b in enumerate(TASKS)}
    source = f"generated: SJF-BSBF section VI-A calibration, seed {seed}"
    xi_source = f"global xi = {xi:g}" if xi else f"per task pair U({xi_low:g}, {xi_high:g}), seed {seed}"
    return SharingInstance(
        name=f"sharing-n{jobs}-s{seed}",
        cluster=Cluster(nodes, gpus_per_node, gpu_memory_gb, 2, preemption_overhead_s),
        models=dict(DEFAULT_PROFILES),
        interference=Interference(xi or 1.5, pairs, xi_source),
        jobs=tuple(out),
        source=source,
    )
