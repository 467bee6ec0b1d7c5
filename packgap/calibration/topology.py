"""The packing constraints of GIMBAL section 5.1, checked on a job set with field paths.

Rules (section 5.1, "Constraints for Job Packing"):

1. at most two workers share a GPU, and a job has at most one worker per GPU;
2. optimal topology: a job of world size n sits on the fewest nodes, ceil(n / gpus_per_node);
3. no cascades: only a smaller job co-locates with a larger one, so a job set has one job of
   largest world size, J_max, that co-locates with all others while the others co-locate only
   with it; here that reads: every worker of a job other than J_max is on one of J_max's GPUs.
   A job of J_max's own world size therefore covers exactly J_max's GPUs (the paper's
   "balanced co-location").

Data rules: every GPU exists, every model has a speed profile, and every co-located pair of
models has a measured (or stated) pair speed in both directions.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from packgap.errors import Problem
from packgap.fields import join

if TYPE_CHECKING:
    from packgap.calibration.instance import CalibrationInstance


def data_problems(instance: CalibrationInstance) -> list[Problem]:
    """GPUs that do not exist, models without a profile, co-located pairs without a pair speed."""
    problems: list[Problem] = []
    count = instance.gpu_count
    known = {m.name for m in instance.throughput.models}
    pairs = {(p.model, p.partner) for p in instance.throughput.pairs}
    for i, job in enumerate(instance.jobs):
        path = join("jobs", i)
        for k, gpu in enumerate(job.gpus):
            if gpu >= count:
                problems.append(
                    Problem(
                        join(join(path, "gpus"), k),
                        f"GPU {gpu} does not exist (cluster has {count} GPUs, 0..{count - 1})",
                    )
                )
        if job.model not in known:
            problems.append(
                Problem(
                    join(path, "model"),
                    f"no speed data for model {job.model!r} (throughput.models has: {', '.join(sorted(known))})",
                )
            )
    for (j, _), other in instance.partners().items():
        if other is None:
            continue
        mine, theirs = instance.jobs[j].model, instance.jobs[other[0]].model
        if mine in known and theirs in known and (mine, theirs) not in pairs:
            problem = Problem(
                join(join("jobs", j), "model"),
                f"no pair speed for {mine!r} co-located with {theirs!r} in throughput.pairs",
            )
            if problem not in problems:
                problems.append(problem)
    return problems


def topology_problems(instance: CalibrationInstance) -> list[Problem]:
    """Every broken rule of section 5.1, each with the path of the offending field."""
    problems: list[Problem] = []
    holders: dict[int, list[str]] = {}
    for i, job in enumerate(instance.jobs):
        path = join("jobs", i)
        for k, gpu in enumerate(job.gpus):
            if gpu in job.gpus[:k]:
                problems.append(Problem(join(join(path, "gpus"), k), f"GPU {gpu} listed twice (one worker per GPU)"))
            elif job.id not in holders.setdefault(gpu, []):
                holders[gpu].append(job.id)
        nodes = {gpu // instance.gpus_per_node for gpu in job.gpus}
        fewest = math.ceil(job.world_size / instance.gpus_per_node)
        if len(nodes) > fewest:
            problems.append(
                Problem(
                    join(path, "gpus"),
                    f"job {job.id!r} of {job.world_size} GPUs spans {len(nodes)} nodes; the fewest is {fewest} "
                    "(section 5.1, optimal topology)",
                )
            )
    for gpu, ids in sorted(holders.items()):
        if len(ids) > 2:
            i = next(i for i, j in enumerate(instance.jobs) if j.id == ids[2])
            k = instance.jobs[i].gpus.index(gpu)
            problems.append(
                Problem(
                    join(join(join("jobs", i), "gpus"), k),
                    f"GPU {gpu} holds workers of {len(ids)} jobs ({', '.join(ids)}); at most 2 (section 5.1)",
                )
            )
    if not instance.jobs:
        return problems
    big = instance.j_max()
    big_gpus = set(instance.jobs[big].gpus)
    for i, job in enumerate(instance.jobs):
        if i == big:
            continue
        for k, gpu in enumerate(job.gpus):
            if gpu not in big_gpus:
                problems.append(
                    Problem(
                        join(join(join("jobs", i), "gpus"), k),
                        f"GPU {gpu} is not a GPU of J_max (job {instance.jobs[big].id!r}); in a job set every other "
                        "job co-locates only with J_max, a smaller job with a larger one (section 5.1)",
                    )
                )
    return problems
