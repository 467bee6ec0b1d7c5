"""Exact reductions of one PAL round (eq. 1) that every block-based method shares.

*Job types.* Two jobs with the same class, GPU demand, ``L_across`` and weight cost the same
on the same GPUs (eq. 1 reads nothing else of a job), so they are interchangeable: they merge
into one type of ``count`` jobs (DESIGN.md, "Known structure"). A one-GPU job never pays
``L_across``, so its type ignores it. ``L_across >= 1`` is assumed (the instance reader's rule):
then a within-node placement is never dearer than a spread one.

*Score-ordered blocks.* Give a type's jobs a pool of GPUs, ``N`` per job, each job paying
``c x max`` of its GPUs' PM-scores with the same ``c``. Sorting the pool by score and cutting
it into consecutive blocks of ``N`` minimises the sum of the maxima: the ``i``-th largest
block maximum of any split is at least the score at position ``(count - i + 1) N`` of the
sorted pool, which the sorted split attains. Ties are broken by GPU id, so the split is
deterministic.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from packgap.placement import Job, PlacementInstance


@dataclass(frozen=True)
class JobType:
    """Identical jobs of a round: ``jobs`` are their ids in queue order."""

    job_class: str
    gpus: int
    penalty: float
    weight: float
    jobs: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.jobs)

    def across_factor(self) -> float:
        """The cost factor of a job spread over nodes: weight x ``L_across`` (1 GPU: weight)."""
        return self.weight * (self.penalty if self.gpus > 1 else 1.0)

    def packs_within(self, gpus_per_node: int) -> bool:
        """True when a within-node placement can be cheaper than a spread one (eq. 1)."""
        return 1 < self.gpus <= gpus_per_node and self.penalty > 1.0


def job_types(instance: PlacementInstance) -> tuple[JobType, ...]:
    """The round's jobs merged into types, in order of each type's first job."""
    members: dict[tuple[str, int, float, float], list[Job]] = {}
    for job in instance.jobs:
        penalty = instance.penalty(job) if job.gpus > 1 else 1.0
        key = (job.job_class, job.gpus, penalty, instance.weight(job))
        members.setdefault(key, []).append(job)
    return tuple(JobType(*key, tuple(j.id for j in jobs)) for key, jobs in members.items())


def score_order(gpus: Iterable[int], scores: Sequence[float]) -> list[int]:
    """``gpus`` by ascending PM-score, ties by GPU id."""
    return sorted(gpus, key=lambda g: (scores[g], g))


def blocks(gpus: Iterable[int], size: int, scores: Sequence[float]) -> list[tuple[int, ...]]:
    """The score-ordered split of a pool into blocks of ``size`` (the pool's size is a multiple)."""
    ordered = score_order(gpus, scores)
    return [tuple(ordered[i : i + size]) for i in range(0, len(ordered), size)]


def within_subsets(instance: PlacementInstance, job_type: JobType) -> list[tuple[int, ...]]:
    """Every way to place one job of ``job_type`` on one node: the ``N``-subsets of each node's
    free GPUs (none when the type never gains from packing, ``JobType.packs_within``)."""
    if not job_type.packs_within(instance.gpus_per_node):
        return []
    by_node: dict[int, list[int]] = {}
    for g in instance.free_gpus():
        by_node.setdefault(instance.node_of(g), []).append(g)
    return [s for gpus in by_node.values() for s in itertools.combinations(gpus, job_type.gpus)]
