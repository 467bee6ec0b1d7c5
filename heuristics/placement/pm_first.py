"""PM-First placement (PAL, section III-B, Algorithm 1, Fig. 4).

Jobs are placed in *placement priority* order: the scheduler's queue is cut at the first
job whose demand would exceed the cluster ("we mark the job queue when the sum of GPU
demands of jobs in the queue exceeds the cluster size"), and only that prefix is sorted by
class, most variability-sensitive class first, stably (Fig. 4). Each job then takes the
N_j free GPUs with the best (lowest) binned PM-score for its class (Algorithm 1). Line 7's
"Sort(G_free, V_i, descending)" is read as the text states, "from best to worst", i.e.
ascending PM-score.

Ties between equal PM-scores are not specified by the paper: ``tie_break="gpu"`` (default)
keeps GPU id order; ``tie_break="node-fit"`` is the PAL artifact's rule (blox-sim-inputs
PROVENANCE.md, section 5): prefer GPUs on nodes whose count of same-bin candidates is
closest to N_j, then GPU id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from packgap.heuristics.placement.allocate import allocate
from packgap.heuristics.placement.free_pool import FreePool
from packgap.heuristics.placement.pm_score import ClassBins, bin_scores
from packgap.placement import Job, PlacementInstance, PlacementSolution

TieBreak = Literal["gpu", "node-fit"]


def placement_order(jobs: Sequence[Job], capacity: int, classes: Sequence[str]) -> list[Job]:
    """Fig. 4: sort by class the queue prefix whose summed demand fits ``capacity``."""
    total, cut = 0, len(jobs)
    for i, job in enumerate(jobs):
        total += job.gpus
        if total > capacity:
            cut = i
            break
    rank = {c: k for k, c in enumerate(classes)}
    return [*sorted(jobs[:cut], key=lambda j: rank[j.job_class]), *jobs[cut:]]


def pm_first_gpus(
    free: Sequence[int],
    demand: int,
    scores: Sequence[float],
    gpus_per_node: int,
    tie_break: TieBreak = "gpu",
) -> list[int]:
    """Algorithm 1 for one job: the ``demand`` best-scored GPUs of ``free`` (a round places
    its jobs through one :class:`FreePool` instead)."""
    return FreePool.of(len(scores), gpus_per_node, free).view("", tuple(scores)).best(demand, tie_break)


def pm_first(
    instance: PlacementInstance,
    seed: int = 0,
    *,
    bins: Mapping[str, ClassBins] | None = None,
    tie_break: TieBreak = "gpu",
) -> PlacementSolution:
    """Place every job of the round with PM-First; ``seed`` is unused (deterministic)."""
    return place_by_class(
        instance,
        bins,
        lambda pool, job, b: pool.view(job.job_class, b.scores).best(job.gpus, tie_break),
    )


def place_by_class(
    instance: PlacementInstance,
    bins: Mapping[str, ClassBins] | None,
    pick: Callable[[FreePool, Job, ClassBins], Sequence[int]],
) -> PlacementSolution:
    """Place the round's jobs in Fig. 4's order, ``pick(pool, job, class bins)`` choosing
    each one's GPUs; ``bins`` default to the K-Means bins of the round's cluster."""
    binned = bins if bins is not None else bin_scores(instance)
    free = instance.num_gpus - sum(1 for g in instance.unavailable if 0 <= g < instance.num_gpus)
    order = placement_order(instance.jobs, free, instance.classes)
    return allocate(instance, order, lambda pool, job: pick(pool, job, binned[job.job_class]))
