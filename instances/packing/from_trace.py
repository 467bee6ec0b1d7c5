"""Packing instances from trace jobs (submit time, GPU demand, duration), as CUCKOO section 4.1
builds its workload.

Rules, applied to the jobs a reader (:mod:`packgap.instances.packing.trace_records`) returns:

* Jobs: the first ``max_jobs`` in submit order; arrivals are shifted so the first arrives at 0.
* GPU demand: the trace's. A job wider than every GPU type is an error unless ``drop_wide``
  leaves it out (before ``max_jobs`` is counted).
* Model and batch size: CUCKOO section 4.1 "randomly sample[s] the model and batch size from
  Table 8"; so does this builder, uniformly and seeded, whatever model the trace names (the
  trace keeps its arrivals, demands and durations). Stage profiles as in
  :mod:`packgap.instances.packing.generator` (Muri's measured resource times, scaled by batch size
  and per GPU type).
* Iterations: the trace's duration (s) read as the standalone duration on the fastest GPU
  type, divided by the drawn model's standalone iteration time there, rounded, at least 1
  (the generator's rule for its log-normal lengths).
* Deadlines: eq. 15, ``(deadline - arrival) / executing_time ~ N(8, 2)`` floored at 1.

Per job the seeded stream draws the model, the batch size, then the eq. 15 factor, in
submit order: same trace, same options, same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from packgap.gpus import GpuSpec, GpuType
from packgap.instances.packing.generator import DEFAULT_GPU_TYPES, JobSpec, table8_job, table8_model
from packgap.instances.packing.trace_records import JobTrace, arrivals, select
from packgap.packing import PackingInstance
from packgap.packing.instance import Interleaving


def build(
    trace: JobTrace,
    name: str,
    seed: int,
    *,
    gpu_types: Sequence[GpuSpec] = DEFAULT_GPU_TYPES,
    max_jobs: int | None = None,
    drop_wide: bool = False,
    interleaving: Interleaving = "am",
    interference: float = 2.0,
) -> PackingInstance:
    """The packing instance of ``trace`` by the module's rules, named ``name-n<jobs>-s<seed>``."""
    widest = max(spec[1] for spec in gpu_types)
    chosen = select(trace, max_jobs, widest, drop_wide, "every GPU type's count")
    rng = np.random.default_rng(seed)
    jobs = []
    for r, arrival in zip(chosen, arrivals(chosen), strict=True):
        spec = JobSpec(r.id, arrival, r.gpus, r.duration_s, *table8_model(rng))
        jobs.append(table8_job(rng, spec, gpu_types, interleaving, interference))
    return PackingInstance(
        name=f"{name}-n{len(jobs)}-s{seed}",
        gpu_types=tuple(GpuType(spec[0], spec[1]) for spec in gpu_types),
        jobs=tuple(jobs),
        interleaving=interleaving,
        interference=interference,
    )
