"""An example plug-in package of packgap (docs/own-heuristic.md): installed, its methods and
policies are found through the ``packgap.methods`` entry point, with no ``--plugin``.

- placement method and policy ``node-fastest``: a job that fits on one node goes to the node
  whose fastest free GPUs are fastest for its class; a wider job takes the fastest free GPUs;
- packing policy ``edf-solo``: online, the waiting job with the earliest deadline starts alone
  on the GPU type with the most free GPUs, while one fits.

packgap imports a plug-in when its CLI starts, so the module imports packgap's families (and
NumPy with them) inside its functions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import packgap

if TYPE_CHECKING:
    from packgap.packing.online import Start, View
    from packgap.placement import PlacementInstance


def node_fastest(instance: PlacementInstance, seed: int = 0) -> dict[str, Any]:
    """Each job in queue order: the fastest free GPUs of one node when it fits one, else anywhere."""
    free = set(instance.free_gpus())
    allocations: dict[str, list[int]] = {}
    for job in instance.jobs:
        scores = instance.pm_scores[job.job_class]
        nodes = [
            sorted((g for g in free if instance.node_of(g) == node), key=lambda g: (scores[g], g))[: job.gpus]
            for node in range(instance.nodes)
        ]
        fitting = [gpus for gpus in nodes if len(gpus) == job.gpus]
        if fitting:
            chosen = min(fitting, key=lambda gpus: (max(scores[g] for g in gpus), gpus))
        else:
            chosen = sorted(free, key=lambda g: (scores[g], g))[: job.gpus]
        free.difference_update(chosen)
        allocations[job.id] = chosen
    return {"allocations": allocations}


@packgap.register_method("placement", "node-fastest")
def node_fastest_method(instance: PlacementInstance, context: Any) -> dict[str, Any]:
    """fastest free GPUs of one node per job, else anywhere (example package)"""
    return node_fastest(instance)


packgap.register_policy("placement", "node-fastest", node_fastest, description="fastest GPUs of one node")


@packgap.register_policy("packing", "edf-solo")
def edf_solo(view: View) -> Sequence[Start]:
    """earliest deadline first, each job alone on the type with the most free GPUs (example package)"""
    from packgap.packing.online import Start

    free = [list(gpus) for gpus in view.free]
    starts = []
    for job in sorted(view.queue.jobs, key=lambda j: (j.deadline, j.id)):
        k = max(range(len(free)), key=lambda k: (len(free[k]), -k))
        if len(free[k]) < job.gpus:
            break
        gpus, free[k] = free[k][: job.gpus], free[k][job.gpus :]
        starts.append(Start((job.id,), view.queue.gpu_types[k].name, tuple(gpus)))
    return starts
