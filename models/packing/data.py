"""What both exact packing models read, and how their answers become solutions.

Candidates are every feasible group (each job alone, each pair of equal demand; eq. 3)
with, per GPU type where the demand fits, the exact timeline of
:mod:`packgap.packing.timeline` (the evaluator's own numbers): the group's duration and
each member's completion offset. The objective is the evaluator's, written as

    V = w_c * sum_j C_j + w_l * sum_j L_j + constant

with ``C_j`` job j's completion time and ``L_j`` its lateness indicator (eq. 8-10; the
pure modes set one weight to 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from packgap.deadline import checked
from packgap.packing import PackingInstance, PackingSolution, PlacedGroup
from packgap.packing.evaluate import TOL
from packgap.packing.timeline import candidate_groups


@dataclass(frozen=True)
class Candidate:
    """A feasible group: member job indices, release (latest arrival), and per GPU type
    ``durations[k]`` / ``offsets[k][member]`` in seconds, None where the demand exceeds
    the type's count."""

    jobs: tuple[int, ...]
    demand: int
    release: float
    durations: tuple[float | None, ...]
    offsets: tuple[tuple[float, ...] | None, ...]


@dataclass(frozen=True)
class Weights:
    completion: float
    late: float
    constant: float


def candidates(instance: PackingInstance, only: Sequence[Sequence[str]] | None = None) -> list[Candidate]:
    """Every group and type where the demand fits, except dominated pairs; or, with
    ``only``, exactly the groups listed (a fixed packing), dominated or not.

    A pair whose interleaved iteration is slower than its two standalone iterations
    together (its duration exceeds the two jobs run one after the other) is dominated on
    that type: running the members back to back there finishes each of them no later and
    frees the GPUs sooner. Dropping those options keeps the optimum and makes
    :func:`horizon` a valid bound on every start of a left-shifted optimal schedule.
    The deadline in force is checked as the groups go (:func:`packgap.deadline.checked`).
    """
    index = instance.job_index()
    wanted = None if only is None else {frozenset(g) for g in only}
    result = []
    for ids, lines in checked(candidate_groups(instance)):
        if wanted is not None and frozenset(ids) not in wanted:
            continue
        jobs = tuple(index[j] for j in ids)
        demand = instance.jobs[jobs[0]].gpus
        alone = [
            sum(instance.jobs[j].iterations * t * 1e-3 for j, t in zip(jobs, line.standalone_ms, strict=True))
            for line in lines
        ]
        fits = [
            demand <= t.count and (wanted is not None or line.duration <= a * (1 + 1e-12))
            for t, line, a in zip(instance.gpu_types, lines, alone, strict=True)
        ]
        if not any(fits):
            continue
        result.append(
            Candidate(
                jobs,
                demand,
                max(instance.jobs[j].arrival for j in jobs),
                tuple(line.duration if ok else None for line, ok in zip(lines, fits, strict=True)),
                tuple(line.completion if ok else None for line, ok in zip(lines, fits, strict=True)),
            )
        )
    return result


def weights(instance: PackingInstance) -> Weights:
    """Eq. 10 (or the instance's pure mode) as weights on sum C_j and sum L_j."""
    n = len(instance.jobs)
    arrivals = sum(j.arrival for j in instance.jobs)
    if instance.objective == "mean-jct":
        return Weights(1.0 / n, 0.0, -arrivals / n)
    if instance.objective == "late-count":
        return Weights(0.0, 1.0, 0.0)
    return Weights(instance.alpha / n, instance.beta / n, -instance.alpha * arrivals / n)


def horizon(instance: PackingInstance, cands: Sequence[Candidate], fixed: bool = False) -> float:
    """After the last arrival, every job alone on its slowest type one after another (or,
    for a ``fixed`` packing, every given group so): no left-shifted optimum starts later."""
    chosen = cands if fixed else [c for c in cands if len(c.jobs) == 1]
    slowest = [max(d for d in c.durations if d is not None) for c in chosen]
    return max(j.arrival for j in instance.jobs) + sum(slowest)


def place(
    instance: PackingInstance, cands: Sequence[Candidate], chosen: Sequence[tuple[int, int, float]]
) -> PackingSolution:
    """Chosen (candidate, type index, start) -> a solution with concrete GPU indices.

    A per-type cumulative schedule always splits onto single GPUs: sweep the groups by
    start and give each the lowest-numbered GPUs already free (at a start time, the busy
    GPUs plus the new demand fit in the count, so enough are free).
    """
    names = instance.type_names
    free = [[0.0] * t.count for t in instance.gpu_types]
    groups = []
    for c, k, planned in sorted(chosen, key=lambda x: (x[2], x[1], x[0])):
        cand = cands[c]
        start = max(planned, cand.release)
        duration = cand.durations[k]
        assert duration is not None
        ready = [g for g in range(len(free[k])) if free[k][g] <= start + TOL][: cand.demand]
        if len(ready) < cand.demand:
            raise ValueError(f"type {names[k]} over capacity at {start}: model answer is infeasible")
        for g in ready:
            free[k][g] = start + duration
        ids = tuple(instance.jobs[j].id for j in cand.jobs)
        groups.append(PlacedGroup(ids, names[k], tuple(ready), start))
    return PackingSolution(tuple(groups))
