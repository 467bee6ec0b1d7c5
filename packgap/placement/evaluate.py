"""The one validator and the one evaluator of the placement family.

Both read only the instance and the solution; a policy's or solver's own idea of a job's
slowdown (its LV-matrix cell) is never trusted.
"""

from __future__ import annotations

from dataclasses import dataclass

from packgap.errors import ValidationError
from packgap.family import Evaluation
from packgap.placement.instance import Job, PlacementInstance
from packgap.placement.solution import PlacementSolution


@dataclass(frozen=True)
class JobSlowdown:
    """Eq. 1 of PAL for one job: ``slowdown = locality x variability``."""

    job: str
    locality: float
    variability: float
    nodes: int

    @property
    def slowdown(self) -> float:
        return self.locality * self.variability


def validate(instance: PlacementInstance, solution: PlacementSolution) -> None:
    """Raise :class:`ValidationError` naming every broken rule.

    Rules: every job of the round is placed and no unknown job is; each gets exactly its
    demand; each GPU id exists, is free (not held by a sticky job) and is given once.
    """
    jobs = {j.id: j for j in instance.jobs}
    n = instance.num_gpus
    problems: list[str] = []
    owner: dict[int, str] = {}
    for jid, gpus in solution.allocations.items():
        if jid not in jobs:
            problems.append(f"allocations.{jid}: unknown job {jid!r}")
            continue
        if len(gpus) != jobs[jid].gpus:
            problems.append(f"job {jid!r} needs {jobs[jid].gpus} GPU(s), got {len(gpus)}")
        for g in gpus:
            if not 0 <= g < n:
                problems.append(f"job {jid!r}: GPU {g} does not exist (GPUs 0..{n - 1})")
            elif g in instance.unavailable:
                problems.append(f"job {jid!r}: GPU {g} is held by a sticky job")
            if g in owner:
                problems.append(f"GPU {g} given twice (jobs {owner[g]!r} and {jid!r})")
            owner[g] = jid
    missing = [j.id for j in instance.jobs if j.id not in solution.allocations]
    if missing:
        problems.append(f"{len(missing)} job(s) not placed: {', '.join(missing[:10])}")
    if problems:
        raise ValidationError("placement", problems)


def job_slowdown(instance: PlacementInstance, job: Job, gpus: tuple[int, ...]) -> JobSlowdown:
    """``L_across`` if the GPUs span more than one node else 1 (``L_within``), times the
    largest PM-score of the GPUs for the job's class (eq. 1)."""
    nodes = len({instance.node_of(g) for g in gpus})
    locality = instance.penalty(job) if nodes > 1 else 1.0
    scores = instance.pm_scores[job.job_class]
    return JobSlowdown(job.id, locality, max(scores[g] for g in gpus), nodes)


def evaluate(instance: PlacementInstance, solution: PlacementSolution) -> Evaluation:
    """Objective = sum over jobs of weight x L x max V (``weight`` = 1 or remaining work)."""
    rows = [(j, job_slowdown(instance, j, solution.allocations[j.id])) for j in instance.jobs]
    objective = sum(instance.weight(job) * s.slowdown for job, s in rows)
    slowdowns = [s.slowdown for _, s in rows]
    return Evaluation(
        objective=objective,
        metrics={
            "sum_slowdown": sum(slowdowns),
            "mean_slowdown": sum(slowdowns) / max(1, len(rows)),
            "max_slowdown": max(slowdowns, default=0.0),
            "spread_jobs": float(sum(1 for _, s in rows if s.nodes > 1)),
            "gpus_used": float(sum(j.gpus for j in instance.jobs)),
        },
    )
