"""The exact timeline of a job group on one GPU type (CUCKOO section 3.3.1, eq. 7).

A group of two jobs advances both jobs by one iteration per interleaved cycle until the
one with fewer iterations finishes; the survivor then runs alone at its standalone
iteration time. A single job runs alone throughout. The group holds its GPUs from its
start until its last job ends (``duration`` = T_gk of eq. 7); each job completes at its own
offset. These numbers are everything an exact model needs about a group, so
:func:`candidate_groups` exports them for audit.

Groups of three or four jobs (Muri's ``packing_num`` = 4) follow the same rule: all members
advance one iteration per cycle of the whole group until the one with the fewest iterations
is done, then the others continue as the smaller group, at its iteration time under the
same model, and so on. The exact models consider pairs only (CUCKOO's groups, eq. 3):
:func:`candidate_groups` lists singles and pairs, and their optima and bounds are over
solutions whose groups hold at most two jobs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from packgap.packing.instance import Interleaving, Job, PackingInstance
from packgap.packing.interleave import Member, am_group_iteration, muri_group_iteration, muri_p_iteration

MS = 1e-3
#: The most jobs a group holds (Muri's ``packing_num``; CUCKOO's groups are pairs).
MAX_GROUP = 4


def iteration_ms(members: Sequence[Member], model: Interleaving, interference: float) -> float:
    """Iteration time (ms) of ``members`` run together under ``model``."""
    if model == "am":
        return am_group_iteration(tuple(members), interference)
    if model == "muri":
        return muri_group_iteration(tuple(m.profile for m in members))
    return muri_p_iteration(tuple(m.profile for m in members))


@dataclass(frozen=True)
class GroupTimeline:
    """A group on one GPU type: iteration times (ms) and completion offsets (s) per job."""

    gpu_type: str
    interleaved_ms: float
    standalone_ms: tuple[float, ...]
    completion: tuple[float, ...]

    @property
    def duration(self) -> float:
        """Seconds from the group's start until it frees its GPUs."""
        return max(self.completion)


def timeline(jobs: Sequence[Job], k: int, gpu_type: str, model: Interleaving, interference: float) -> GroupTimeline:
    """Timeline of ``jobs`` (one to :data:`MAX_GROUP`) on GPU type index ``k`` under ``model``."""
    alone = tuple(iteration_ms([j.member(k)], model, interference) for j in jobs)
    if len(jobs) == 1:
        return GroupTimeline(gpu_type, alone[0], alone, (jobs[0].iterations * alone[0] * MS,))
    if not 2 <= len(jobs) <= MAX_GROUP:
        raise ValueError(f"a group holds 1 to {MAX_GROUP} jobs, got {len(jobs)}")
    together = iteration_ms([j.member(k) for j in jobs], model, interference)
    if len(jobs) == 2:
        shared = min(j.iterations for j in jobs)
        completion = tuple(
            (shared * together + (j.iterations - shared) * t) * MS for j, t in zip(jobs, alone, strict=True)
        )
        return GroupTimeline(gpu_type, together, alone, completion)
    return GroupTimeline(gpu_type, together, alone, _phases(jobs, k, model, interference))


def _phases(jobs: Sequence[Job], k: int, model: Interleaving, interference: float) -> tuple[float, ...]:
    """Completion offsets (s) of a group of three or more: it shrinks as its members finish."""
    done = [0.0] * len(jobs)
    left = sorted(range(len(jobs)), key=lambda i: (jobs[i].iterations, i))
    clock = 0.0
    run = 0
    while left:
        step = iteration_ms([jobs[i].member(k) for i in left], model, interference)
        first = jobs[left[0]].iterations
        clock += (first - run) * step * MS
        run = first
        while left and jobs[left[0]].iterations == first:
            done[left.pop(0)] = clock
    return tuple(done)


def group_timelines(instance: PackingInstance, jobs: Sequence[Job]) -> tuple[GroupTimeline, ...]:
    """The group's timeline on every GPU type, under the instance's ground-truth model."""
    return tuple(
        timeline(jobs, k, name, instance.interleaving, instance.interference)
        for k, name in enumerate(instance.type_names)
    )


def candidate_groups(
    instance: PackingInstance,
) -> Iterator[tuple[tuple[str, ...], tuple[GroupTimeline, ...]]]:
    """Every feasible group (each job alone, each equal-demand pair, eq. 3) with its timelines."""
    jobs = instance.jobs
    for i, a in enumerate(jobs):
        yield (a.id,), group_timelines(instance, [a])
        for b in jobs[i + 1 :]:
            if a.gpus == b.gpus:
                yield (a.id, b.id), group_timelines(instance, [a, b])


def audit_rows(instance: PackingInstance) -> list[dict[str, Any]]:
    """:func:`candidate_groups` as JSON-ready rows, one per (group, GPU type), for audit."""
    return [
        {
            "jobs": list(ids),
            "gpu_type": line.gpu_type,
            "interleaved_ms": line.interleaved_ms,
            "standalone_ms": list(line.standalone_ms),
            "completion_s": list(line.completion),
            "duration_s": line.duration,
        }
        for ids, lines in candidate_groups(instance)
        for line in lines
    ]
