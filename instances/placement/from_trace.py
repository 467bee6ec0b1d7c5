"""Cluster traces for ``packgap simulate`` from trace jobs (submit time, GPU demand, duration).

Rules, applied to the jobs a reader (:mod:`packgap.instances.packing.trace_records`) returns, in
the way PAL section IV-B1 turns Philly-derived traces into simulator input and
:mod:`packgap.instances.placement.synergy` builds its Synergy-like traces:

* Jobs: the first ``max_jobs`` in submit order; submit times shifted so the first is 0. A
  job wider than the cluster is an error unless ``drop_wide`` leaves it out (before
  ``max_jobs`` is counted).
* Model: drawn uniformly, seeded, from the PAL artifact's six models (the traces name other
  models or none); class by the paper's Table II (resnet50, vgg19, DCGAN -> A; BERT, GPT2 ->
  B; PointNet -> C); per-iteration time from the artifact (``ARTIFACT_ITER_TIMES``).
* Work: the trace's duration (s) read as the run time on a median GPU (PM-score 1, one
  node), in iterations of the drawn model: ``ceil(duration / iter_time)``, at least 1.
* Cluster: ``gpus`` GPUs in nodes of ``gpus_per_node`` (default 64 x 4 = 256, PAL's Synergy
  cluster), L_across = 1.7 (section IV-D), 300 s rounds. Per-GPU PM-score factors:
  ``factors="profiles"`` samples the variability profiles of ``traces/pal/variability``
  without repetition (section IV-C, the paper's method; classes A-D of ``profiles.json``);
  ``"synthetic"`` draws :func:`packgap.instances.placement.variability.synthetic_factors` (classes
  A-C, no files needed).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.packing.trace_records import JobTrace, arrivals, select
from packgap.instances.placement.rounds import PAPER_MODEL_CLASSES
from packgap.instances.placement.sim import ARTIFACT_ITER_TIMES, ARTIFACT_L_ACROSS
from packgap.instances.placement.variability import read_profiles, sample_factors, synthetic_factors
from packgap.instances.traces import traces_dir
from packgap.placement.simulator import Cluster, SimJob
from packgap.placement.trace import ClusterTrace

FACTORS = ("profiles", "synthetic")
PAPER_ROUND = 300.0


def pm_factors(gpus: int, seed: int, factors: str, traces: str | Path | None) -> dict[str, tuple[float, ...]]:
    """Per-class, per-GPU PM-score factors by the ``factors`` rule of the module docstring."""
    if factors == "synthetic":
        return synthetic_factors(gpus, seed)
    if factors == "profiles":
        return sample_factors(read_profiles(traces_dir(traces) / "pal" / "variability"), gpus, seed)
    raise PackgapError(f"--factors must be one of {', '.join(FACTORS)}, got {factors!r}")


def trace_cluster(gpus: int, gpus_per_node: int, seed: int, factors: str, traces: str | Path | None) -> Cluster:
    """The module's cluster: ``gpus`` in nodes of ``gpus_per_node``, PM-score factors by ``factors``."""
    if gpus < 1 or gpus_per_node < 1 or gpus % gpus_per_node:
        raise PackgapError(f"--gpus must be a positive multiple of --gpus-per-node ({gpus_per_node}), got {gpus}")
    scores = pm_factors(gpus, seed, factors, traces)
    return Cluster(gpus // gpus_per_node, gpus_per_node, tuple(sorted(scores)), scores, ARTIFACT_L_ACROSS)


def build(
    trace: JobTrace,
    name: str,
    seed: int,
    *,
    gpus: int = 256,
    gpus_per_node: int = 4,
    factors: str = "profiles",
    traces: str | Path | None = None,
    max_jobs: int | None = None,
    drop_wide: bool = False,
) -> ClusterTrace:
    """The cluster trace of ``trace`` by the module's rules, named ``name-n<jobs>-g<gpus>-<factors>-s<seed>``."""
    cluster = trace_cluster(gpus, gpus_per_node, seed, factors, traces)
    chosen = select(trace, max_jobs, gpus, drop_wide, "the cluster's GPUs")
    models = sorted(ARTIFACT_ITER_TIMES)
    picks = np.random.default_rng(seed).integers(len(models), size=len(chosen))
    jobs = []
    for r, submit, pick in zip(chosen, arrivals(chosen), picks, strict=True):
        model = models[int(pick)]
        iter_time = ARTIFACT_ITER_TIMES[model]
        work = float(max(1, math.ceil(r.duration_s / iter_time)))
        jobs.append(SimJob(r.id, r.gpus, submit, work, model, PAPER_MODEL_CLASSES[model], iter_time))
    return ClusterTrace(f"{name}-n{len(jobs)}-g{gpus}-{factors}-s{seed}", cluster, tuple(jobs), PAPER_ROUND)
