"""Cluster traces for ``packgap simulate`` from a researcher's own CSV job list
(:mod:`packgap.instances.csv_jobs`), by the rules of :mod:`packgap.instances.placement.from_trace`
except that each job keeps its own model where the PAL artifact has its iteration time:

* Model: the row's, if it is one of the artifact's six (up to case and punctuation); any other
  is drawn uniformly, seeded, from the six, as the trace builders draw every job's (one draw per
  distinct unknown name, noted). Class by PAL Table II.
* Work: ``iterations`` when given, else ``ceil(duration_s / iter_time)`` of the model (run
  time on a median GPU, one node), at least 1.
* Cluster: ``gpus`` GPUs in nodes of ``gpus_per_node`` (default 64 x 4), factors as the trace
  builders'; a job wider than the cluster is dropped, and noted.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from packgap.instances import csv_jobs
from packgap.instances.placement.from_trace import PAPER_ROUND, trace_cluster
from packgap.instances.placement.rounds import PAPER_MODEL_CLASSES
from packgap.instances.placement.sim import ARTIFACT_ITER_TIMES
from packgap.placement.simulator import SimJob
from packgap.placement.trace import ClusterTrace


def build(
    path: Path,
    seed: int = 0,
    *,
    gpus: int = 256,
    gpus_per_node: int = 4,
    factors: str = "profiles",
    traces: str | Path | None = None,
) -> ClusterTrace:
    """The cluster trace of the jobs of ``path``, named ``<file stem>-n<jobs>-g<gpus>-<factors>-s<seed>``."""
    cluster = trace_cluster(gpus, gpus_per_node, seed, factors, traces)
    jobs = csv_jobs.fitting(csv_jobs.read(path), gpus, "the cluster")
    for column in ("deadline_s", "batch_size"):
        csv_jobs.unused(jobs, column, "placement")
    choices = sorted(ARTIFACT_ITER_TIMES)
    rng = np.random.default_rng(seed)
    models = csv_jobs.map_models(
        jobs,
        {c: c for c in choices},
        lambda name: choices[int(rng.integers(len(choices)))],
        f"seeded draw among {', '.join(choices)}",
    )
    out = []
    for job, model in zip(jobs, models, strict=True):
        iter_time = ARTIFACT_ITER_TIMES[model]
        work = job.iterations if job.iterations is not None else max(1, math.ceil((job.duration_s or 0.0) / iter_time))
        out.append(SimJob(job.id, job.gpus, job.arrival_s, float(work), model, PAPER_MODEL_CLASSES[model], iter_time))
    return ClusterTrace(f"{path.stem}-n{len(out)}-g{gpus}-{factors}-s{seed}", cluster, tuple(out), PAPER_ROUND)
