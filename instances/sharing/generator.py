"""Seeded generator of sharing workloads for SJF-BSBF's simulation (section VI-A).

Cluster: 16 nodes x 4 GPUs, 11 GB each (the 2080 Ti testbed scaled to the simulated 64
GPUs). Jobs arrive by a Poisson process over ``hours`` (``table3``: moved to the start of one of
its bursts). GPU counts follow Philly's mix with the paper's share of large jobs (> 4 GPUs: about
13 %, read from Tables III-IV): 1, 2, 4, 8, 12, 16 GPUs with
probabilities .62, .13, .12, .09, .02, .02. The task follows Pollux's rule on GPU-time (< 1
GPU-h: CIFAR10 or NCF; < 10: DeepSpeech2 or BERT; < 100: YOLOv3; else ImageNet) and the
iteration count is the solo run time over the task's solo iteration time (eq. 7).

Three workloads (``workload``):

* ``table3`` (the default): calibrated to what Table III publishes; every input's source is in
  :data:`TABLE3`. Solo run times are log-normal per GPU class, each class's draws scaled so their
  mean is the run time Table III implies (JCT minus queuing under SJF and FIFO, which never
  share: small jobs <= 4 GPUs 0.94 - 0.39 = 0.55 h, large 3.50 - 1.76 = 1.74 h). The arrival
  window and its bursts are those whose SJF and FIFO queuing come near Table III's 0.56 h and
  1.65 h, and
  xi the range that makes sharing inflate run time near the 26 % Table III implies (SJF-BSBF's
  1.01 - 0.14 = 0.87 h of running against SJF's 1.25 - 0.56 = 0.69 h); the measured values beside
  each target are printed by the ``sjf-bsbf-table3`` reproduction. Only inputs are fitted: the
  order of the policies is measured, never a target.
* ``v1``: the generator before issue 30, kept for the exact methods, the speed benchmarks and the
  schedule hashes measured on it: log-normal solo times independent of GPU count (median
  ``duration_median_s`` = 1800 s, sigma 1.2), 8-hour window (Pollux samples an 8-hour window),
  xi per ordered task pair from U(1.1, 2.0).
* ``physical``: the testbed workload of section VI-B (Table II, 16 GPUs): two thirds of the
  jobs use 1, 2, 4 or 8 GPUs and one third 12 or 16; iterations are log-uniform in [100, 5000];
  the task is drawn uniformly.

Solo times are clipped to [2 min, 12 h]. Interference: one global xi when ``xi`` > 0 (Fig. 6b),
else one xi per ordered task pair drawn from U(xi_low, xi_high).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.sharing.profiles import DEFAULT_BATCH, DEFAULT_PROFILES
from packgap.sharing import Cluster, Interference, Job, SharingInstance
from packgap.sharing.perf import iteration_time

GPU_CHOICES = (1, 2, 4, 8, 12, 16)
GPU_PROBS = (0.62, 0.13, 0.12, 0.09, 0.02, 0.02)
TASKS = tuple(DEFAULT_PROFILES)
WORKLOADS = ("table3", "v1", "physical")
#: GPUs of the largest "small" job (Tables III-IV split small and large jobs at 4 GPUs).
SMALL_GPUS = 4
HOUR = 3600.0


@dataclass(frozen=True)
class Preset:
    """A workload's defaults: arrival window (h), solo-time spread, xi range, and per GPU class
    the mean solo time in seconds (None: one log-normal of median ``median_s`` for all)."""

    hours: float
    sigma: float
    xi_low: float
    xi_high: float
    bursts: int = 0
    median_s: float = 1800.0
    small_mean_s: float | None = None
    large_mean_s: float | None = None


#: Table III's calibration (:data:`TABLE3`), each number's source:
#:
#: * small / large mean solo time 0.55 / 1.74 h: Table III, JCT minus queuing of SJF (0.94 - 0.39,
#:   3.50 - 1.76 h; FIFO's rows give 0.55 and 1.75 h);
#: * sigma 1.2: v1's (the paper publishes no spread);
#: * window 4.5 h in 3 bursts (every job arrives at the start of its 90-minute third): a scan of
#:   windows 2.5-8 h, sigma 0.6-1.4 and 0-8 bursts (240 jobs) for SJF's and FIFO's mean queuing
#:   against Table III's 0.56 and 1.65 h, each of seeds 1-3 within 30 % of both (4.5 h: SJF 0.44,
#:   0.40, 0.42 h; FIFO 1.99, 1.55, 1.81 h; over seeds 0-9 0.48 and 2.36 h, FIFO ranging 0.9-3.8 h
#:   with the long jobs that block its head). Poisson arrivals with SJF backfilling cannot reach
#:   SJF's 0.56 h without pushing FIFO far past 1.65 h (3 h: 0.27 and 1.93 h): small jobs find
#:   free GPUs between arrivals; in bursts they queue;
#: * xi 1.1 for every task pair (U(1.1, 1.1)): the xi range whose run-time inflation (SJF-BSBF's
#:   mean JCT minus queuing over SJF's) comes nearest Table III's 0.87 / 0.69 - 1 = 26.1 %
#:   (4-hour window: upper ends 2.0, 1.6, 1.4, 1.25, 1.2, 1.1 give 41, 49, 40, 34, 31, 26 %; at 4.5 h
#:   xi 1.1 gives 26.9 %); v1's memory model.
TABLE3 = Preset(4.5, 1.2, 1.1, 1.1, bursts=3, small_mean_s=0.55 * HOUR, large_mean_s=1.74 * HOUR)
#: v1: the generator before issue 30 (solo times independent of GPU count).
V1 = Preset(8.0, 1.2, 1.1, 2.0)
PRESETS = {"table3": TABLE3, "v1": V1, "physical": V1}


def _task(rng: np.random.Generator, gpu_hours: float) -> str:
    if gpu_hours < 1:
        return str(rng.choice(["cifar10", "ncf"]))
    if gpu_hours < 10:
        return str(rng.choice(["deepspeech2", "bert"]))
    return "yolov3" if gpu_hours < 100 else "imagenet"


def in_bursts(arrivals: np.ndarray, bursts: int, hours: float) -> np.ndarray:
    """Each arrival moved back to the start of its window of ``hours`` / ``bursts`` (0: as is)."""
    if not bursts:
        return arrivals
    window = hours * HOUR / bursts
    return window * np.floor(arrivals / window)


def _solo_times(
    rng: np.random.Generator, gpus: np.ndarray, preset: Preset, median_s: float, sigma: float
) -> np.ndarray:
    """Log-normal solo times; with class means, each class's draws scaled to its mean."""
    draws = rng.lognormal(np.log(median_s), sigma, size=len(gpus))
    if preset.small_mean_s is not None and preset.large_mean_s is not None:
        for members, mean in ((gpus <= SMALL_GPUS, preset.small_mean_s), (gpus > SMALL_GPUS, preset.large_mean_s)):
            if members.any():
                draws[members] *= mean / draws[members].mean()
    return np.clip(draws, 120.0, 12 * HOUR)


def generate(
    jobs: int,
    seed: int,
    *,
    nodes: int = 16,
    gpus_per_node: int = 4,
    gpu_memory_gb: float = 11.0,
    hours: float | None = None,
    duration_median_s: float | None = None,
    duration_sigma: float | None = None,
    xi: float = 0.0,
    xi_low: float | None = None,
    xi_high: float | None = None,
    preemption_overhead_s: float = 0.0,
    workload: str = "table3",
) -> SharingInstance:
    """A seeded workload; options left None take the workload's preset (:data:`PRESETS`)."""
    if workload not in WORKLOADS:
        raise PackgapError(f"--workload must be one of {', '.join(WORKLOADS)}, got {workload!r}")
    preset = PRESETS[workload]
    if duration_median_s is not None and workload == "table3":
        raise PackgapError("--duration-median-s applies to --workload v1 (table3 sets each GPU class's mean)")
    hours = preset.hours if hours is None else hours
    median = preset.median_s if duration_median_s is None else duration_median_s
    sigma = preset.sigma if duration_sigma is None else duration_sigma
    xi_low = preset.xi_low if xi_low is None else xi_low
    xi_high = preset.xi_high if xi_high is None else xi_high
    if jobs < 1:
        raise PackgapError(f"--jobs must be >= 1, got {jobs}")
    if not sigma > 0:
        raise PackgapError(f"duration_sigma must be > 0, got {sigma}")
    if xi != 0 and xi < 1:
        raise PackgapError(f"--xi must be >= 1 (or 0 for per-pair values), got {xi}")
    if not 1 <= xi_low <= xi_high:
        raise PackgapError(f"need 1 <= --xi-low <= --xi-high, got {xi_low}, {xi_high}")
    rng = np.random.default_rng(seed)
    total = nodes * gpus_per_node
    arrivals = np.sort(rng.uniform(0.0, hours * HOUR, size=jobs))
    arrivals = in_bursts(arrivals - arrivals[0], preset.bursts, hours)
    gpus = rng.choice(GPU_CHOICES, size=jobs, p=GPU_PROBS)
    durations = _solo_times(rng, gpus, preset, median, sigma)
    if workload == "physical":
        large = rng.uniform(size=jobs) < 1 / 3
        gpus = np.where(large, rng.choice((12, 16), size=jobs), rng.choice((1, 2, 4, 8), size=jobs))
        counts = np.round(np.exp(rng.uniform(np.log(100), np.log(5000), size=jobs)))
        tasks = rng.choice(TASKS, size=jobs)
    out = []
    for i in range(jobs):
        g = int(min(gpus[i], total))
        task = str(tasks[i]) if workload == "physical" else _task(rng, durations[i] * g / HOUR)
        batch = DEFAULT_BATCH[task]
        t_iter = iteration_time(DEFAULT_PROFILES[task], batch, batch, g)
        iterations = int(counts[i]) if workload == "physical" else max(1, round(float(durations[i]) / t_iter))
        out.append(Job(f"j{i}", round(float(arrivals[i]), 3), g, iterations, batch, task))
    pairs = {}
    if xi == 0:
        draws = rng.uniform(xi_low, xi_high, size=(len(TASKS), len(TASKS)))
        pairs = {(a, b): round(float(draws[i, k]), 4) for i, a in enumerate(TASKS) for k, b in enumerate(TASKS)}
    table3 = workload == "table3"
    source = f"generated: SJF-BSBF section VI-A {'Table III calibration' if table3 else 'calibration'}, seed {seed}"
    xi_source = f"global xi = {xi:g}" if xi else f"per task pair U({xi_low:g}, {xi_high:g}), seed {seed}"
    return SharingInstance(
        name=f"sharing-{'table3-' if table3 else ''}n{jobs}-s{seed}",
        cluster=Cluster(nodes, gpus_per_node, gpu_memory_gb, 2, preemption_overhead_s),
        models=dict(DEFAULT_PROFILES),
        interference=Interference(xi or 1.5, pairs, xi_source),
        jobs=tuple(out),
        source=source,
    )
