"""Brute-force packing optimum: every grouping, every group order, every GPU choice.

From the family's definition (CUCKOO eq. 3-10, :mod:`packgap.packing.evaluate`): jobs form
groups of one or two of equal GPU demand; a group runs on as many GPUs of one type as the
demand, from a start no earlier than its members' arrivals, holding its GPUs for its
timeline's duration (:func:`packgap.packing.timeline.timeline`). The objective is
nondecreasing in every completion time, so some optimal schedule is *semi-active*: taken in
order of start times, each group starts as soon as its members have arrived and its GPUs are
free (moving each group earlier in that order keeps the schedule feasible and no worse). So
every grouping x every order of its groups x every choice of GPU type and GPUs, each group
started at once, reaches an optimum. GPUs of one type whose free times are equal are
interchangeable, so one subset per multiset of free times is tried. The winner is scored by
the evaluator.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

from packgap.packing import FAMILY, PackingInstance, PackingSolution, PlacedGroup
from packgap.packing.evaluate import TOL
from packgap.packing.timeline import GroupTimeline, timeline


def groupings(jobs: tuple[int, ...], demand: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every partition of ``jobs`` into singles and equal-demand pairs."""
    if not jobs:
        yield []
        return
    first, rest = jobs[0], jobs[1:]
    for tail in groupings(rest, demand):
        yield [(first,), *tail]
    for i, other in enumerate(rest):
        if demand[other] == demand[first]:
            for tail in groupings(rest[:i] + rest[i + 1 :], demand):
                yield [(first, other), *tail]


def _objective(instance: PackingInstance, completion: dict[int, float]) -> float:
    jobs = instance.jobs
    mean = sum(completion[j] - jobs[j].arrival for j in completion) / len(jobs)
    late = sum(1 for j, c in completion.items() if c > jobs[j].deadline + TOL)
    return {"weighted": instance.alpha * mean + instance.beta * late / len(jobs), "mean-jct": mean}.get(
        instance.objective, float(late)
    )


def optimum(instance: PackingInstance) -> tuple[float, PackingSolution]:
    jobs = instance.jobs
    demand = [j.gpus for j in jobs]
    types = [(k, t.name, t.count) for k, t in enumerate(instance.gpu_types) if t.count >= 1]
    lines: dict[tuple[tuple[int, ...], int], GroupTimeline] = {}

    def line(group: tuple[int, ...], k: int) -> GroupTimeline:
        if (group, k) not in lines:
            name = instance.gpu_types[k].name
            lines[group, k] = timeline([jobs[j] for j in group], k, name, instance.interleaving, instance.interference)
        return lines[group, k]

    best, best_groups = math.inf, ()

    def place(
        order: list[tuple[int, ...]], free: dict[tuple[int, int], float], done: dict[int, float], placed: tuple
    ) -> None:
        nonlocal best, best_groups
        if not order:
            value = _objective(instance, done)
            if value < best:
                best, best_groups = value, placed
            return
        group, rest = order[0], order[1:]
        arrival = max(jobs[j].arrival for j in group)
        for k, name, count in types:
            seen = set()
            for gpus in itertools.combinations(range(count), demand[group[0]]):
                signature = tuple(sorted(free[k, g] for g in gpus))
                if signature in seen:
                    continue
                seen.add(signature)
                start = max(arrival, *signature)
                tl = line(group, k)
                after = dict(free) | {(k, g): start + tl.duration for g in gpus}
                ends = done | {j: start + c for j, c in zip(group, tl.completion, strict=True)}
                place(rest, after, ends, (*placed, PlacedGroup(tuple(jobs[j].id for j in group), name, gpus, start)))

    free0 = {(k, g): 0.0 for k, _, count in types for g in range(count)}
    for grouping in groupings(tuple(range(len(jobs))), demand):
        if any(demand[g[0]] > max(c for _, _, c in types) for g in grouping):
            continue
        for order in itertools.permutations(grouping):
            place(list(order), free0, {}, ())
    solution = PackingSolution(best_groups)
    FAMILY.validate(instance, solution)
    return FAMILY.evaluate(instance, solution).objective, solution
