"""Seeded placement rounds (one PAL scheduling round, section III) and trace-derived ones.

:func:`generate_round` builds a synthetic round: nodes of 4 GPUs (Frontera, section IV-A),
synthetic PM-scores for classes A, B, C (:mod:`packgap.instances.placement.variability`), and jobs drawn
from the Sia-Philly GPU-demand mix measured over the 8 x 160 jobs of
``sia_philly_workloads`` (1 GPU 41 %, 4: 6 %, 6: 15 %, 8: 13 %, 12: 13 %, 16: 10 %, 24-48:
2 %) and its model mix, with the paper's model -> class map (Table II). Jobs are drawn until
``jobs`` are drawn or the free GPUs run out (a demand larger than what is left is cut to it),
so every round is feasible. Remaining work is log-normal around one hour (seconds).

:func:`trace_round` builds the first round of a trace on a given GPU table: the jobs
submitted by ``at``, in FIFO order, as many as fit (PAL's queue prefix, Fig. 4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.placement.traces import GpuTable, TraceJob
from packgap.instances.placement.variability import synthetic_factors
from packgap.placement import Job, PlacementInstance

T = TypeVar("T")

#: PAL Table II: model -> class (A most variability-sensitive).
PAPER_MODEL_CLASSES: Mapping[str, str] = {
    "resnet50": "A",
    "vgg19": "A",
    "DCGAN": "A",
    "BERT": "B",
    "GPT2": "B",
    "PointNet": "C",
}
#: GPU demands of the Sia-Philly workloads and their counts over all 1,280 jobs.
DEMAND_MIX = ((1, 522), (4, 83), (6, 191), (8, 166), (12, 165), (16, 126), (24, 7), (32, 10), (48, 10))
#: Models of the Sia-Philly workloads and their counts over all 1,280 jobs.
MODEL_MIX = (("BERT", 34), ("DCGAN", 84), ("GPT2", 30), ("PointNet", 500), ("resnet50", 110), ("vgg19", 522))


def _mix(rng: np.random.Generator, mix: Sequence[tuple[T, int]], size: int) -> list[T]:
    weights = np.array([w for _, w in mix], dtype=float)
    picks = rng.choice(len(mix), size=size, p=weights / weights.sum())
    return [mix[int(i)][0] for i in picks]


def generate_round(
    gpus: int,
    jobs: int,
    seed: int,
    *,
    gpus_per_node: int = 4,
    locality_penalty: float = 1.7,
    held: float = 0.0,
    objective: str = "slowdown",
    strict: bool = False,
) -> PlacementInstance:
    """A synthetic round on ``gpus`` GPUs with up to ``jobs`` jobs; a share ``held`` of the
    GPUs is held by sticky jobs. L_across = 1.7 is the paper's Frontera estimate (IV-D).

    When the drawn demands exceed the free GPUs, the last job that fits is cut to the GPUs
    left and the rest are dropped; ``strict`` refuses such a draw instead, naming how many
    jobs fit."""
    if gpus < 1 or gpus % gpus_per_node:
        raise PackgapError(f"--gpus must be a positive multiple of {gpus_per_node}, got {gpus}")
    if jobs < 0 or not 0 <= held < 1:
        raise PackgapError(f"need jobs >= 0 and 0 <= held < 1, got {jobs}, {held}")
    rng = np.random.default_rng(seed)
    scores = synthetic_factors(gpus, int(rng.integers(2**31)))
    unavailable = frozenset(int(g) for g in rng.choice(gpus, size=int(held * gpus), replace=False))
    demands = _mix(rng, DEMAND_MIX, jobs)
    models = _mix(rng, MODEL_MIX, jobs)
    work = rng.lognormal(np.log(3600.0), 1.0, size=jobs)
    left = gpus - len(unavailable)
    placed: list[Job] = []
    for i in range(jobs):
        if left == 0:
            break
        n = min(demands[i], left)
        if strict and n < demands[i]:
            # No job fitting leaves --gpus as the one advice (--jobs starts at 1).
            advice = f"use more --gpus or at most --jobs {i}"
            if i == 0:
                advice = f"its first job needs {demands[i]} GPUs: use more --gpus"
            raise PackgapError(f"--jobs {jobs}: only {i} jobs of this draw fit on {gpus} GPUs (seed {seed}); {advice}")
        model = models[i]
        placed.append(Job(f"j{i}", n, PAPER_MODEL_CLASSES[model], model, round(float(work[i]), 3)))
        left -= n
    return PlacementInstance(
        name=f"placement-g{gpus}-j{jobs}-s{seed}",
        nodes=gpus // gpus_per_node,
        gpus_per_node=gpus_per_node,
        classes=("A", "B", "C"),
        pm_scores=scores,
        locality_penalty=locality_penalty,
        jobs=tuple(placed),
        unavailable=unavailable,
        objective=objective,
    )


def trace_round(
    name: str,
    trace: Sequence[TraceJob],
    table: GpuTable,
    model_classes: Mapping[str, str],
    at: float,
    *,
    locality_penalty: float = 1.7,
    objective: str = "slowdown",
) -> PlacementInstance:
    """The round at time ``at`` of an empty cluster: FIFO prefix of the jobs submitted by
    then whose demand fits; work = the trace's ``duration`` (iterations)."""
    arrived = sorted((j for j in trace if j.submit_time <= at), key=lambda j: j.submit_time)
    jobs: list[Job] = []
    free = table.nodes * table.gpus_per_node
    unknown = sorted({j.model for j in arrived} - set(model_classes))
    if unknown:
        raise PackgapError(f"no class for model(s) {', '.join(unknown)} in the model -> class map")
    for j in arrived:
        if j.gpus > free:
            break
        free -= j.gpus
        jobs.append(Job(str(j.job_id), j.gpus, model_classes[j.model], j.model, j.duration))
    classes = tuple(sorted(table.factors))
    return PlacementInstance(
        name=name,
        nodes=table.nodes,
        gpus_per_node=table.gpus_per_node,
        classes=classes,
        pm_scores=dict(table.factors),
        locality_penalty=locality_penalty,
        jobs=tuple(jobs),
        objective=objective,
    )
