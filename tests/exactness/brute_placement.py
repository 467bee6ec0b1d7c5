"""Brute-force placement optimum: every choice of free GPUs for every job of the round.

From the family's definition (PAL eq. 1, :mod:`packgap.placement.evaluate`): each job takes
exactly its demand of distinct free GPUs and costs weight x L x max V, with L = L_across (per
model where given) when its GPUs span more than one node, else 1. Jobs are placed one after
another over every subset of the GPUs still free; the winner is scored by the evaluator.
"""

from __future__ import annotations

import itertools
import math

from packgap.placement import FAMILY, PlacementInstance, PlacementSolution


def optimum(instance: PlacementInstance) -> tuple[float, PlacementSolution]:
    best, best_allocations = math.inf, {}

    def place(i: int, free: frozenset[int], cost: float, chosen: dict[str, tuple[int, ...]]) -> None:
        nonlocal best, best_allocations
        if i == len(instance.jobs):
            if cost < best:
                best, best_allocations = cost, dict(chosen)
            return
        job = instance.jobs[i]
        for gpus in itertools.combinations(sorted(free), job.gpus):
            spread = len({g // instance.gpus_per_node for g in gpus}) > 1
            locality = instance.model_penalties.get(job.model, instance.locality_penalty) if spread else 1.0
            weight = job.work if instance.objective == "work" else 1.0
            here = weight * locality * max(instance.pm_scores[job.job_class][g] for g in gpus)
            chosen[job.id] = gpus
            place(i + 1, free - set(gpus), cost + here, chosen)
            del chosen[job.id]

    place(0, frozenset(instance.free_gpus()), 0.0, {})
    solution = PlacementSolution(best_allocations)
    FAMILY.validate(instance, solution)
    return FAMILY.evaluate(instance, solution).objective, solution
