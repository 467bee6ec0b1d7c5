"""Synthetic Synergy-like traces for the round simulator (PAL section IV-B1, V-C).

The paper: Synergy traces "preserve the Philly trace's GPU demand and use a Poisson
distribution of arrival times to vary job arrival rate", with "> 80%" single-GPU jobs,
simulated on 64 nodes x 4 GPUs with L_across = 1.7, reporting jobs 2000-3000.
This generator's choices where the paper gives no numbers: GPU demands 1 / 2 / 4 / 8 with
weights 0.82 / 0.06 / 0.07 / 0.05 (mean 1.6 GPUs); models drawn uniformly from the
artifact's six models; work log-normal on a median GPU with median 3 h and sigma 1.8 (mean
15 h, Philly's heavy tail), in iterations of the model's artifact iteration time. The work
is calibrated to the paper's Fig. 15: at 10 jobs/hour 256 GPUs saturate, i.e. the offered
load 10/h x 1.6 GPUs x 15 h = 240 GPUs is close to the cluster.
"""

from __future__ import annotations

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.placement.rounds import PAPER_MODEL_CLASSES
from packgap.instances.placement.sim import ARTIFACT_ITER_TIMES, ARTIFACT_L_ACROSS
from packgap.instances.placement.variability import synthetic_factors
from packgap.placement.simulator import Cluster, SimJob
from packgap.placement.trace import ClusterTrace

DEMANDS = (1, 2, 4, 8)
DEMAND_WEIGHTS = (0.82, 0.06, 0.07, 0.05)


def synergy_trace(
    jobs: int,
    jobs_per_hour: float,
    seed: int,
    *,
    median_work_s: float = 3 * 3600.0,
    work_sigma: float = 1.8,
) -> list[SimJob]:
    """``jobs`` jobs with Poisson arrivals at ``jobs_per_hour``; classes from Table II."""
    if jobs < 1 or jobs_per_hour <= 0:
        raise PackgapError(f"need jobs >= 1 and jobs_per_hour > 0, got {jobs}, {jobs_per_hour}")
    rng = np.random.default_rng(seed)
    arrivals = np.cumsum(rng.exponential(3600.0 / jobs_per_hour, size=jobs))
    demands = rng.choice(DEMANDS, size=jobs, p=DEMAND_WEIGHTS)
    models = sorted(ARTIFACT_ITER_TIMES)
    picks = rng.integers(len(models), size=jobs)
    seconds = rng.lognormal(np.log(median_work_s), work_sigma, size=jobs)
    out = []
    for i in range(jobs):
        model = models[int(picks[i])]
        iters = float(np.ceil(seconds[i] / ARTIFACT_ITER_TIMES[model]))
        out.append(
            SimJob(
                str(i),
                int(demands[i]),
                round(float(arrivals[i]), 3),
                iters,
                model,
                PAPER_MODEL_CLASSES[model],
                ARTIFACT_ITER_TIMES[model],
            )
        )
    return out


def synergy_cluster_trace(
    jobs: int, jobs_per_hour: float, seed: int, *, gpus: int = 256, gpus_per_node: int = 4
) -> ClusterTrace:
    """A Synergy-like trace on ``gpus`` GPUs (default 64 nodes x 4, L_across = 1.7) with
    synthetic per-GPU factors (``packgap.instances.placement.variability.synthetic_factors``), 300 s rounds."""
    if gpus < 1 or gpus % gpus_per_node:
        raise PackgapError(f"--gpus must be a positive multiple of {gpus_per_node}, got {gpus}")
    factors = synthetic_factors(gpus, seed)
    cluster = Cluster(gpus // gpus_per_node, gpus_per_node, tuple(sorted(factors)), factors, ARTIFACT_L_ACROSS)
    trace = synergy_trace(jobs, jobs_per_hour, seed)
    too_big = [j.id for j in trace if j.gpus > gpus]
    if too_big:
        raise PackgapError(f"--gpus {gpus} is smaller than job {too_big[0]}'s demand")
    return ClusterTrace(f"synergy-n{jobs}-r{jobs_per_hour:g}-g{gpus}-s{seed}", cluster, tuple(trace))
