"""FIFO and EDF execution planning, the baselines of CUCKOO's Table 13 (section 4.5).

The paper names the baselines but not their GPU choice. Here both are list schedulers on
the heterogeneous cluster: groups are taken in FIFO (queue) or EDF (deadline, ties by queue)
order and each goes to the GPU on which it would *finish* earliest, ties to the GPU listed
first. ``gpu_choice="earliest-start"`` takes the GPU that frees up first instead, the
reading that ignores heterogeneity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from packgap.deadline import checked
from packgap.errors import UnknownNameError
from packgap.planning import GpuSequence, PlanningInstance, PlanningSolution

GpuChoice = Literal["earliest-finish", "earliest-start"]


def list_schedule(
    instance: PlanningInstance, order: Sequence[int], gpu_choice: GpuChoice = "earliest-finish"
) -> PlanningSolution:
    """Place groups (indices into ``instance.groups``) one by one in ``order`` (the deadline in
    force checked as they go)."""
    if gpu_choice not in ("earliest-finish", "earliest-start"):
        raise UnknownNameError("gpu_choice", gpu_choice, ["earliest-finish", "earliest-start"])
    gpus = [(k, j) for k, t in enumerate(instance.gpu_types) for j in range(t.count)]
    clock = [0.0] * len(gpus)
    plans: list[list[str]] = [[] for _ in gpus]
    for i in checked(order):
        group = instance.groups[i]
        if gpu_choice == "earliest-finish":
            best = min(range(len(gpus)), key=lambda m: clock[m] + group.times[gpus[m][0]])
        else:
            best = min(range(len(gpus)), key=lambda m: clock[m])
        clock[best] += group.times[gpus[best][0]]
        plans[best].append(group.id)
    return PlanningSolution(
        tuple(
            GpuSequence(instance.gpu_types[k].name, j, tuple(plan))
            for (k, j), plan in zip(gpus, plans, strict=True)
            if plan
        )
    )


def fifo(instance: PlanningInstance, gpu_choice: GpuChoice = "earliest-finish") -> PlanningSolution:
    """Groups in submission (queue) order."""
    return list_schedule(instance, range(len(instance.groups)), gpu_choice)


def edf(instance: PlanningInstance, gpu_choice: GpuChoice = "earliest-finish") -> PlanningSolution:
    """Groups by earliest deadline first; equal deadlines keep queue order."""
    order = sorted(range(len(instance.groups)), key=lambda i: (instance.groups[i].deadline, i))
    return list_schedule(instance, order, gpu_choice)
