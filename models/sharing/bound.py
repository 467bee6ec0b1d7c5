"""A cheap valid lower bound on the average JCT of any sharing schedule, preemptive or not.

Two relaxations, the larger of which is the bound (on the sum of completion times):

1. Each job alone: C_j >= a_j + P_j, with P_j its solo run time at the fewest accumulation
   steps whose worker fits an empty GPU (eq. 7 grows with the step count s, and sharing
   only slows a job down, xi >= 1).
2. Pooled capacity with the most optimistic sharing: a GPU serves at most C jobs, each at
   1/xi of its solo pace, so it processes at most max(1, C / xi_min) solo GPU-seconds per
   second (xi_min: the smallest ratio in the instance). All GPUs pooled into one machine of
   that speed with job j's work G_j P_j, released at a_j and split at will, is a
   relaxation of every schedule; shortest remaining processing time is optimal for the sum
   of completion times on it (Schrage 1968), run here on :mod:`packgap.engine`.

Memory, gangs, topology and non-preemption are all relaxed, so the bound holds for every
policy here, Tiresias included.
"""

from __future__ import annotations

import math

from packgap import engine
from packgap.sharing import SharingInstance
from packgap.sharing.perf import iteration_time, memory_gb


def min_solo_time(instance: SharingInstance, job_index: int) -> float:
    """P_j: the least solo run time over every sub-batch whose worker fits an empty GPU."""
    job = instance.jobs[job_index]
    model = instance.models[job.model]
    for s in range(1, job.batch + 1):
        b = math.ceil(job.batch / s)
        if memory_gb(model, b) <= instance.cluster.gpu_memory_gb + 1e-9:
            return job.iterations * iteration_time(model, job.batch, b, job.gpus)
    raise AssertionError("the instance reader rejects jobs that fit no GPU at b = 1")


def pooled_speed(instance: SharingInstance) -> float:
    """Solo GPU-seconds per second the whole cluster can process at best."""
    xi = instance.interference
    xi_min = min([xi.default, *xi.pairs.values()])
    return instance.cluster.gpus * max(1.0, instance.cluster.max_jobs_per_gpu / xi_min)


def completion_lower_bound(instance: SharingInstance) -> float:
    """A lower bound on the sum of completion times (absolute, seconds)."""
    if not instance.jobs:
        return 0.0
    solo = [min_solo_time(instance, i) for i in range(len(instance.jobs))]
    alone = sum(j.arrival + p for j, p in zip(instance.jobs, solo, strict=True))
    speed = pooled_speed(instance)
    work = [engine.EngineJob(j.id, j.arrival, j.gpus * p) for j, p in zip(instance.jobs, solo, strict=True)]

    def srpt(state: engine.State) -> engine.Decision:
        first = min(state.active, key=lambda p: (p.remaining, p.id))
        return engine.Decision({first.id: speed})

    pooled = sum(r.finish for r in engine.simulate(work, srpt).records.values())
    return max(alone, pooled)


def average_jct_lower_bound(instance: SharingInstance) -> float:
    """The bound as an average JCT (the family's objective)."""
    if not instance.jobs:
        return 0.0
    total_arrival = sum(j.arrival for j in instance.jobs)
    return (completion_lower_bound(instance) - total_arrival) / len(instance.jobs)
