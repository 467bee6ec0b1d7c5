"""Simulator inputs from the PAL artifact's files (blox-sim-inputs PROVENANCE.md).

The artifact simulator's constants: per-model iteration times (s) and its model -> class
map, which differs from the paper's Table II (``packgap.instances.placement.rounds.PAPER_MODEL_CLASSES``).
The trace's ``duration`` is a number of iterations.

:func:`artifact_extra_jobs` rebuilds the untracked jobs the artifact's feeder keeps adding
after the trace (section 1 of that note): job k >= n copies row k mod n, arriving
ceil(3600 x (-ln(1 - u)) / 2) s after the previous job, u from ``random.seed(1)``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from packgap.errors import PackgapError
from packgap.instances.placement.traces import GpuTable, TraceJob
from packgap.placement.simulator import Cluster, SimJob

ARTIFACT_ITER_TIMES: Mapping[str, float] = {
    "BERT": 0.179,
    "DCGAN": 0.0469266931,
    "GPT2": 3.5714,
    "PointNet": 0.28125,
    "resnet50": 0.17540429367763434,
    "vgg19": 0.300610341,
}
ARTIFACT_MODEL_CLASSES: Mapping[str, str] = {
    "resnet50": "A",
    "DCGAN": "B",
    "BERT": "B",
    "GPT2": "B",
    "vgg19": "C",
    "PointNet": "D",
}
#: The artifact's round length (s) and locality penalty.
ARTIFACT_ROUND = 360.0
ARTIFACT_L_ACROSS = 1.7


def sim_jobs(
    trace: Sequence[TraceJob],
    model_classes: Mapping[str, str] = ARTIFACT_MODEL_CLASSES,
    iter_times: Mapping[str, float] = ARTIFACT_ITER_TIMES,
) -> list[SimJob]:
    """Trace rows as simulator jobs, ids = row positions (the artifact's job ids)."""
    unknown = sorted({j.model for j in trace} - (set(model_classes) & set(iter_times)))
    if unknown:
        raise PackgapError(f"no class or iteration time for model(s) {', '.join(unknown)}")
    return [
        SimJob(str(i), j.gpus, j.submit_time, j.duration, j.model, model_classes[j.model], iter_times[j.model])
        for i, j in enumerate(trace)
    ]


def artifact_extra_jobs(jobs: Sequence[SimJob], count: int, seed: int = 1, jobs_per_hour: float = 2.0) -> list[SimJob]:
    """``count`` untracked copies continuing the trace as the artifact's feeder does."""
    draw = random.Random(seed)
    extras, last = [], jobs[-1].submit_time
    for k in range(len(jobs), len(jobs) + count):
        last += math.ceil(3600 * (-math.log(1 - draw.random())) / jobs_per_hour)
        row = jobs[k % len(jobs)]
        extras.append(SimJob(str(k), row.gpus, last, row.work, row.model, row.job_class, row.iter_time, tracked=False))
    return extras


def cluster_from_table(table: GpuTable, locality_penalty: float = ARTIFACT_L_ACROSS) -> Cluster:
    """The simulated cluster of a blox GPU table, classes in name order (A first)."""
    classes = tuple(sorted(table.factors))
    return Cluster(table.nodes, table.gpus_per_node, classes, dict(table.factors), locality_penalty)
