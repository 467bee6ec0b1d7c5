"""Packing instances from a researcher's own CSV job list (:mod:`packgap.instances.csv_jobs`), by
the rules of :mod:`packgap.instances.packing.from_trace` except that each job keeps what the file
gives:

* Model: the row's, if CUCKOO's Table 8 has it (up to case and punctuation); any other gets a
  model drawn uniformly, seeded, from Table 8, as the trace builders draw every job's (one draw
  per distinct unknown name, noted).
* Batch size: ``batch_size`` when given, else drawn from the model's Table 8 sizes.
* Iterations: ``iterations`` when given, else ``duration_s`` read as the standalone duration on
  the fastest GPU type; deadline: ``deadline_s`` when given, else eq. 15.
* GPU types: ``gpu_types`` (default CUCKOO's testbed); a job wider than every type is dropped,
  and noted.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from packgap.gpus import GpuSpec, GpuType
from packgap.instances import csv_jobs
from packgap.instances.packing.generator import DEFAULT_GPU_TYPES, TABLE8, JobSpec, table8_job
from packgap.packing import PackingInstance
from packgap.packing.instance import Interleaving


def build(
    path: Path,
    seed: int = 0,
    *,
    gpu_types: Sequence[GpuSpec] = DEFAULT_GPU_TYPES,
    interleaving: Interleaving = "am",
    interference: float = 2.0,
) -> PackingInstance:
    """The packing instance of the jobs of ``path``, named ``<file stem>-n<jobs>-s<seed>``."""
    jobs = csv_jobs.fitting(csv_jobs.read(path), max(spec[1] for spec in gpu_types), "every GPU type's count")
    rng = np.random.default_rng(seed)
    choices = sorted(TABLE8)
    models = csv_jobs.map_models(
        jobs,
        {c: c for c in choices},
        lambda name: choices[int(rng.integers(len(choices)))],
        "seeded draw from CUCKOO Table 8",
    )
    out = []
    for job, model in zip(jobs, models, strict=True):
        sizes = TABLE8[model]
        batch = job.batch_size if job.batch_size is not None else sizes[int(rng.integers(len(sizes)))]
        spec = JobSpec(
            job.id, job.arrival_s, job.gpus, job.duration_s or 0.0, model, batch, job.iterations, job.deadline_s
        )
        out.append(table8_job(rng, spec, gpu_types, interleaving, interference))
    return PackingInstance(
        name=f"{path.stem}-n{len(out)}-s{seed}",
        gpu_types=tuple(GpuType(spec[0], spec[1]) for spec in gpu_types),
        jobs=tuple(out),
        interleaving=interleaving,
        interference=interference,
    )
