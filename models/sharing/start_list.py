"""A start list of the sharing branch and bound (:mod:`packgap.models.sharing.branch_bound`) as a
schedule: each job's start, GPUs and sub-batch; finishes and co-runners from the progress model."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from packgap.sharing import JobSchedule, Perf, Segment, SharingInstance, SharingSolution
from packgap.sharing.perf import steps
from packgap.sharing.progress import replay


@dataclass(frozen=True)
class Start:
    job: int
    time: float
    gpus: tuple[int, ...]
    batch: int


def schedule_of(instance: SharingInstance, starts: Sequence[Start], perf: Perf) -> SharingSolution:
    """The schedule of ``starts`` (one per job), finishes and co-runners from the progress model."""
    index = {j.id: i for i, j in enumerate(instance.jobs)}
    by_job = {s.job: s for s in starts}
    draft = SharingSolution(
        tuple(
            JobSchedule(j.id, s.batch, steps(j.batch, s.batch), (Segment(s.time, s.gpus),), 0.0)
            for j in instance.jobs
            for s in (by_job[index[j.id]],)
        )
    )
    finish = {jid: r.finish for jid, r in replay(instance, draft, perf).run.records.items()}
    return SharingSolution(
        tuple(
            JobSchedule(j.id, j.batch, j.steps, j.segments, finish[j.id], _co_runner(j, draft, finish))
            for j in draft.jobs
        )
    )


def _co_runner(job: JobSchedule, draft: SharingSolution, finish: dict[str, float]) -> str | None:
    """The job holding one of ``job``'s GPUs when it starts (from the replayed finishes)."""
    for other in draft.jobs:
        holds = other.start <= job.start < finish[other.id]
        if other.id != job.id and holds and set(other.gpus) & set(job.gpus):
            return other.id
    return None
