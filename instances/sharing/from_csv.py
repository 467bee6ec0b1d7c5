"""Sharing instances from a researcher's own CSV job list (:mod:`packgap.instances.csv_jobs`), on
the tasks SJF-BSBF's evaluation takes from Pollux (:data:`~packgap.instances.sharing.profiles.DEFAULT_PROFILES`):

* Model: the row's task (``bert``, ``cifar10``, ``deepspeech2``, ``imagenet``, ``ncf``,
  ``yolov3``), also under the name of the model Pollux trains on it (:data:`ALIASES`: ResNet-50
  is ``imagenet``, ResNet-18 ``cifar10``, NeuMF ``ncf``); any other name gets a task by Pollux's
  GPU-time rule (:mod:`packgap.instances.sharing.generator`; the GPU time of the name's first
  row), as the Philly builder gives every job its task, and is noted.
* Batch size: ``batch_size`` when given, else the task's default; iterations: ``iterations``
  when given, else ``duration_s`` over the task's solo iteration time at that batch on its GPUs.
* Cluster: ``nodes`` x ``gpus_per_node`` GPUs of 11 GB; xi by ``xi_source`` as the trace
  builders'; a job wider than the cluster is dropped, and noted.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from packgap.instances import csv_jobs
from packgap.instances.sharing.generator import _task
from packgap.instances.sharing.profiles import DEFAULT_BATCH, DEFAULT_PROFILES
from packgap.instances.sharing.traces import interference
from packgap.sharing import Cluster, Job, SharingInstance
from packgap.sharing.perf import iteration_time

#: Other names of the tasks' models (Pollux's workloads: the model each task trains).
ALIASES = {"resnet50": "imagenet", "resnet18": "cifar10", "neumf": "ncf", "deepspeech": "deepspeech2", "yolo": "yolov3"}


def build(
    path: Path,
    seed: int = 0,
    *,
    nodes: int = 16,
    gpus_per_node: int = 4,
    xi_source: str = "gavel",
    xi: float = 1.5,
    traces: str | Path | None = None,
) -> SharingInstance:
    """The sharing instance of the jobs of ``path``, named ``<file stem>-n<jobs>``."""
    cluster = Cluster(nodes, gpus_per_node, 11.0)
    jobs = csv_jobs.fitting(csv_jobs.read(path), cluster.gpus, "the cluster")
    csv_jobs.unused(jobs, "deadline_s", "sharing")
    rng = np.random.default_rng(seed)
    first: dict[str, csv_jobs.CsvJob] = {}
    for job in jobs:
        first.setdefault(job.model, job)

    def by_gpu_time(name: str) -> str:
        job = first[name]
        seconds = job.duration_s if job.duration_s is not None else 0.0
        return _task(rng, seconds * job.gpus / 3600)

    known = {**{t: t for t in DEFAULT_PROFILES}, **ALIASES}
    tasks = csv_jobs.map_models(jobs, known, by_gpu_time, "Pollux's GPU-time rule")
    out = []
    for job, task in zip(jobs, tasks, strict=True):
        batch = job.batch_size if job.batch_size is not None else DEFAULT_BATCH[task]
        t_iter = iteration_time(DEFAULT_PROFILES[task], batch, batch, job.gpus)
        steps = job.iterations if job.iterations is not None else max(1, round((job.duration_s or 0.0) / t_iter))
        out.append(Job(job.id, job.arrival_s, job.gpus, steps, batch, task))
    return SharingInstance(
        f"{path.stem}-n{len(out)}",
        cluster,
        dict(DEFAULT_PROFILES),
        interference(xi_source, xi, traces),
        tuple(out),
        f"own jobs {path.name}",
    )
