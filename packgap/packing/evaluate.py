"""The one validator and the one evaluator of the packing family (CUCKOO eq. 3-10).

Both read only the instance and the solution. Group durations and job completions come
from :mod:`packgap.packing.timeline` under the instance's ground-truth interleaving model.

Readings chosen: eq. 8-9 score every job at its group's end ``e_g``; here each job
completes at its own offset on the exact timeline (the shorter job of a pair leaves when
its last iteration ends), while the group holds its GPUs until ``e_g``. Eq. 9 counts
``e >= d`` as late; a job is late here when it finishes more than ``TOL`` seconds after its
deadline ("the percentage of jobs that complete before their specified deadlines", 4.1),
which makes the late count robust to the 6-decimal rounding of files.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.errors import ValidationError
from packgap.family import Evaluation
from packgap.packing.instance import PackingInstance
from packgap.packing.solution import PackingSolution, PlacedGroup
from packgap.packing.timeline import MAX_GROUP, GroupTimeline, timeline

#: Seconds of slack on arrivals, GPU overlaps and deadlines (files keep 6 decimals).
TOL = 1e-6


@dataclass(frozen=True)
class JobOutcome:
    job: str
    group: int
    start: float
    completion: float


def _group_problems(instance: PackingInstance, index: dict[str, int], i: int, g: PlacedGroup) -> list[str]:
    where = f"groups[{i}]"
    counts = {t.name: t.count for t in instance.gpu_types}
    problems: list[str] = []
    if not 1 <= len(g.jobs) <= MAX_GROUP:
        problems.append(f"{where}: holds {len(g.jobs)} jobs (a group holds 1 to {MAX_GROUP})")
    if len(set(g.jobs)) != len(g.jobs):
        problems.append(f"{where}: lists a job twice")
    members = [instance.jobs[index[j]] for j in g.jobs if j in index]
    problems += [f"{where}: unknown job {j!r}" for j in g.jobs if j not in index]
    demands = {m.gpus for m in members}
    if len(demands) > 1:
        problems.append(f"{where}: members demand different GPU counts {sorted(demands)} (eq. 3)")
    late_start = [m for m in members if g.start < m.arrival - TOL]
    problems += [f"{where}: starts at {g.start} before job {m.id!r} arrives at {m.arrival} (eq. 6)" for m in late_start]
    if g.gpu_type not in counts:
        problems.append(f"{where}: unknown GPU type {g.gpu_type!r}")
        return problems
    if len(set(g.gpus)) != len(g.gpus):
        problems.append(f"{where}: lists a GPU twice")
    bad = [x for x in g.gpus if not 0 <= x < counts[g.gpu_type]]
    if bad:
        problems.append(f"{where}: GPU(s) {bad} out of range for {g.gpu_type!r} (indices 0..{counts[g.gpu_type] - 1})")
    if len(demands) == 1 and len(g.gpus) != next(iter(demands)):
        problems.append(f"{where}: uses {len(g.gpus)} GPUs, its jobs demand {next(iter(demands))}")
    return problems


def _timeline(instance: PackingInstance, index: dict[str, int], g: PlacedGroup) -> GroupTimeline:
    k = instance.type_names.index(g.gpu_type)
    jobs = [instance.jobs[index[j]] for j in g.jobs]
    return timeline(jobs, k, g.gpu_type, instance.interleaving, instance.interference)


def validate(instance: PackingInstance, solution: PackingSolution) -> None:
    """Raise :class:`ValidationError` naming every broken rule.

    Rules: each job in exactly one group; 1-4 known, distinct jobs per group (pairs in
    CUCKOO, up to Muri's ``packing_num`` = 4, each scored by the group's timeline); equal demand
    (eq. 3); a known GPU type (eq. 4) and as many distinct in-range GPUs of it as the demand;
    start no earlier than every member's arrival (eq. 6); no GPU runs two groups at once
    (eq. 5, checked per GPU, so the per-type count follows).
    """
    problems: list[str] = []
    placed: dict[str, int] = {}
    index = instance.job_index()
    for i, g in enumerate(solution.groups):
        problems += _group_problems(instance, index, i, g)
        for j in g.jobs:
            placed[j] = placed.get(j, 0) + 1
    problems += [
        f"job {j!r} placed {n} times (must be exactly once)" for j, n in placed.items() if n > 1 and j in index
    ]
    missing = [j.id for j in instance.jobs if j.id not in placed]
    if missing:
        problems.append(f"{len(missing)} job(s) not placed: {', '.join(missing[:10])}")
    if problems:
        raise ValidationError("packing", problems)
    busy: dict[tuple[str, int], list[tuple[float, float, int]]] = {}
    for i, g in enumerate(solution.groups):
        end = g.start + _timeline(instance, index, g).duration
        for gpu in g.gpus:
            busy.setdefault((g.gpu_type, gpu), []).append((g.start, end, i))
    for (name, gpu), spans in sorted(busy.items()):
        spans.sort()
        e0, i0 = spans[0][1], spans[0][2]
        for s1, e1, i1 in spans[1:]:
            if s1 < e0 - TOL:
                problems.append(
                    f"GPU {name}#{gpu}: groups[{i0}] (until {e0:.6f}) overlaps groups[{i1}] (from {s1:.6f}) (eq. 5)"
                )
            if e1 > e0:
                e0, i0 = e1, i1
    if problems:
        raise ValidationError("packing", problems)


def outcomes(instance: PackingInstance, solution: PackingSolution) -> list[JobOutcome]:
    """Start and completion time of every job of a validated solution."""
    result: list[JobOutcome] = []
    index = instance.job_index()
    for i, g in enumerate(solution.groups):
        line = _timeline(instance, index, g)
        for job, offset in zip(g.jobs, line.completion, strict=True):
            result.append(JobOutcome(job, i, g.start, g.start + offset))
    return result


def evaluate(instance: PackingInstance, solution: PackingSolution) -> Evaluation:
    """Eq. 10 (or the pure mode the instance names) recomputed from the solution."""
    index = instance.job_index()
    done = outcomes(instance, solution)
    jct = np.array([o.completion - instance.jobs[index[o.job]].arrival for o in done])
    late = sum(1 for o in done if o.completion > instance.jobs[index[o.job]].deadline + TOL)
    n = max(1, len(done))
    v1, v2 = float(jct.mean()) if len(jct) else 0.0, late / n
    objective = {
        "weighted": instance.alpha * v1 + instance.beta * v2,
        "mean-jct": v1,
        "late-count": float(late),
    }[instance.objective]
    return Evaluation(
        objective=objective,
        metrics={
            "mean_jct_s": v1,
            "p99_jct_s": float(np.percentile(jct, 99)) if len(jct) else 0.0,
            "late_fraction": v2,
            "late_jobs": float(late),
            "deadline_satisfaction": 1.0 - v2,
            "makespan_s": max((o.completion for o in done), default=0.0),
            "groups": float(len(solution.groups)),
            "pairs": float(sum(1 for g in solution.groups if len(g.jobs) == 2)),
        },
    )
