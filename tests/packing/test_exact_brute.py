"""A brute-force optimum of tiny packing instances, independent of the exact models.

Every partition of the jobs into singles and equal-demand pairs (dominated pairs included),
every GPU type per group, every order of the groups; each order is turned into the
schedule that starts every group, in that order, as early as its release and its type's
GPU count allow (a serial schedule). For a regular objective (sum of completions, late
count: both non-decreasing in every completion) the schedules so generated include an
optimal one (Kolisch 1996, active schedules), so the minimum over all of them is the
optimum. Exponential: meant for at most 4 or 5 jobs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from packgap.packing import FAMILY, PackingInstance, PackingSolution, PlacedGroup
from packgap.packing.timeline import group_timelines


def _partitions(jobs: list[int], demand: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not jobs:
        yield []
        return
    first, rest = jobs[0], jobs[1:]
    for tail in _partitions(rest, demand):
        yield [(first,), *tail]
    for i, other in enumerate(rest):
        if demand[other] == demand[first]:
            for tail in _partitions(rest[:i] + rest[i + 1 :], demand):
                yield [(first, other), *tail]


def _earliest(busy: list[tuple[float, float, int]], ready: float, duration: float, demand: int, count: int) -> float:
    for t in sorted({ready, *(e for _, e, _ in busy if e > ready)}):
        points = [t] + [s for s, _, _ in busy if t < s < t + duration]
        if all(sum(d for s, e, d in busy if s <= p < e) + demand <= count for p in points):
            return t
    raise AssertionError("unreachable: the last end always leaves every GPU free")


def brute_force(instance: PackingInstance) -> float:
    """The optimal objective (module docstring)."""
    jobs = instance.jobs
    demand = [j.gpus for j in jobs]
    counts = [t.count for t in instance.gpu_types]
    best = float("inf")
    for part in _partitions(list(range(len(jobs))), demand):
        lines = [group_timelines(instance, [jobs[j] for j in g]) for g in part]
        release = [max(jobs[j].arrival for j in g) for g in part]
        for kinds in itertools.product(range(len(counts)), repeat=len(part)):
            if any(demand[g[0]] > counts[k] for g, k in zip(part, kinds, strict=True)):
                continue
            for order in itertools.permutations(range(len(part))):
                busy: list[list[tuple[float, float, int]]] = [[] for _ in counts]
                groups = []
                for i in order:
                    k, d, length = kinds[i], demand[part[i][0]], lines[i][kinds[i]].duration
                    start = _earliest(busy[k], release[i], length, d, counts[k])
                    busy[k].append((start, start + length, d))
                    ids = tuple(jobs[j].id for j in part[i])
                    groups.append(PlacedGroup(ids, instance.type_names[k], tuple(range(d)), start))
                value = FAMILY.evaluate(instance, PackingSolution(tuple(groups))).objective
                best = min(best, value)
    return best


def test_brute_force_on_the_table3_pair() -> None:
    """CUCKOO Table 3 jobs on one GPU: ResNet alone 145 s then BERT 445 s (mean JCT 367.5 s)
    beats the interleaved pair (543 s each); with both deadlines at 560 s only the pair is
    on time (the hand optima of tests/packing/test_exact.py)."""
    from packgap.gpus import GpuType
    from packgap.packing import Job
    from tests.packing.strategies import BERT, RESNET

    def table3(objective: str, deadline: float) -> PackingInstance:
        jobs = (
            Job("resnet", 0.0, deadline, 1, 1000, "resnet", "before_forward", (RESNET,)),
            Job("bert", 0.0, deadline, 1, 1000, "bert", "before_communication", (BERT,)),
        )
        return PackingInstance("table3", (GpuType("G", 1),), jobs, objective=objective)  # type: ignore[arg-type]

    assert abs(brute_force(table3("mean-jct", 1e4)) - 367.5) < 1e-9
    assert brute_force(table3("late-count", 560.0)) == 0.0
