"""Closed-form lower bounds on the packing objective, for every N (decomposition bounds).

Two relaxations of the joint problem bound ``sum_j C_j``:

* **Per job.** A job completes no earlier than its arrival plus its shortest completion
  offset over every option: alone on any GPU type, or paired on any type with any job of
  equal demand (the exact timeline, :mod:`packgap.packing.timeline`).
* **Aggregated machine (SRPT).** Give each job an *area*: the fewest GPU-seconds any option
  charges it, ``d x offset / |group|`` (a pair's GPU time split so that each member's share
  is used up by its own completion: the shorter job ``d x shared x T / 2``, the longer the
  rest, which is at least half). Every schedule then induces a preemptive schedule of
  these areas, after the arrivals, on one machine processing ``sum_k M_k`` GPU-seconds per
  second, so the optimum of ``1 | r_j, pmtn | sum C_j`` on ``p_j = area_j / sum_k M_k``,
  solved exactly by SRPT, bounds ``sum_j C_j``. It captures queueing, which the per-job
  bound ignores.

The bound on ``sum C`` is the larger of the two; the late count is bounded by the jobs
late even at their per-job bound. With :func:`packgap.models.packing.data.weights` this bounds
every objective mode.

A partner's iteration count enters the offset only through ``min(n_u, n_v)``, linearly,
so the best partner of a kind is its most (or fewest) iterations; a job may be its own
partner here, which can only lower the bound.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

from packgap.deadline import check
from packgap.models.packing.data import weights
from packgap.packing import PackingInstance
from packgap.packing.evaluate import TOL
from packgap.packing.timeline import MS, iteration_ms


@dataclass(frozen=True)
class JobFloors:
    """Per job: the earliest completion offset (s) and the fewest GPU-seconds of any option."""

    offset: np.ndarray
    area: np.ndarray


def job_floors(instance: PackingInstance) -> JobFloors:
    jobs = instance.jobs
    model, lam = instance.interleaving, instance.interference
    types = [k for k, t in enumerate(instance.gpu_types)]
    n = np.array([j.iterations for j in jobs], dtype=float)
    d = np.array([j.gpus for j in jobs], dtype=float)
    alone = np.array([[iteration_ms([j.member(k)], model, lam) for k in types] for j in jobs])
    fits = np.array([[j.gpus <= instance.gpu_types[k].count for k in types] for j in jobs])
    solo = np.where(fits, n[:, None] * alone * MS, np.inf)
    offset, area = solo.min(axis=1), (d[:, None] * solo).min(axis=1)
    kinds: dict[tuple[object, ...], list[int]] = {}
    for i, job in enumerate(jobs):
        kinds.setdefault((job.profiles, job.sync, job.gpus), []).append(i)
    for ia in kinds.values():
        check()
        a = np.array(ia)
        for ib in kinds.values():
            if jobs[ia[0]].gpus != jobs[ib[0]].gpus:
                continue
            most, fewest = n[ib].max(), n[ib].min()
            for k in types:
                if not fits[ia[0], k]:
                    continue
                together = iteration_ms([jobs[ia[0]].member(k), jobs[ib[0]].member(k)], model, lam)
                t = alone[a, k]
                partner = np.where(together < t, most, fewest)
                pair = (n[a] * t + np.minimum(n[a], partner) * (together - t)) * MS
                offset[a] = np.minimum(offset[a], pair)
                area[a] = np.minimum(area[a], d[a] * pair / 2)
    return JobFloors(offset, area)


def srpt_total_completion(release: np.ndarray, work: np.ndarray) -> float:
    """Optimal ``sum C_j`` of one preemptive machine with release dates (SRPT)."""
    order = np.argsort(release, kind="stable")
    heap: list[tuple[float, int]] = []
    clock, total, i = 0.0, 0.0, 0
    while i < len(order) or heap:
        if not heap:
            clock = max(clock, float(release[order[i]]))
        while i < len(order) and release[order[i]] <= clock:
            heapq.heappush(heap, (float(work[order[i]]), int(order[i])))
            i += 1
        left, j = heapq.heappop(heap)
        until = float(release[order[i]]) if i < len(order) else float("inf")
        if clock + left <= until:
            clock += left
            total += clock
        else:
            heapq.heappush(heap, (left - (until - clock), j))
            clock = until
    return total


@dataclass(frozen=True)
class Bound:
    sum_completion: float
    late: int
    objective: float


def lower_bound(instance: PackingInstance) -> Bound:
    """A valid lower bound on the evaluator's objective (module docstring)."""
    floors = job_floors(instance)
    arrival = np.array([j.arrival for j in instance.jobs])
    deadline = np.array([j.deadline for j in instance.jobs])
    capacity = sum(t.count for t in instance.gpu_types)
    per_job = float((arrival + floors.offset).sum())
    srpt = srpt_total_completion(arrival, floors.area / capacity)
    total = max(per_job, srpt)
    late = int((arrival + floors.offset > deadline + TOL).sum())
    w = weights(instance)
    return Bound(total, late, w.completion * total + w.late * late + w.constant)
