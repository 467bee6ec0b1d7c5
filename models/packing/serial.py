"""The primal side of the exact packing methods: a serial schedule of chosen groups.

The serial schedule-generation scheme of project scheduling (Kolisch 1996, "Serial and
parallel resource-constrained project scheduling methods revisited"): groups are taken in a
priority order, and each starts at the earliest time, no earlier than its release (eq. 6),
at which its GPU type has its demand free for its whole duration (eq. 5, a cumulative
profile per type). Among the types a group may use, it takes the one where its own cost
(``w_c`` x completions + ``w_l`` x late members, :func:`packgap.models.packing.data.weights`) is
least, ties to the earliest end. The result is feasible by construction and splits onto
concrete GPUs with :func:`packgap.models.packing.data.place`. The rounding and local search of
``exact-ti`` (:mod:`packgap.analysis.packing.ti`) schedule through it.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

from packgap.models.packing.data import Candidate, Weights
from packgap.packing import PackingInstance
from packgap.packing.evaluate import TOL

#: (candidate, GPU type index, start) per group.
Chosen = list[tuple[int, int, float]]
#: Seconds by which a group may touch the next breakpoint without overlapping it (float noise).
_TOUCH = TOL * 1e-3


@dataclass
class Profile:
    """GPUs in use on one type as a step function: ``usage[i]`` on ``[times[i], times[i + 1])``."""

    capacity: int
    times: list[float] = field(default_factory=lambda: [0.0])
    usage: list[int] = field(default_factory=lambda: [0])

    def earliest(self, ready: float, duration: float, demand: int) -> float:
        """The earliest start >= ``ready`` with ``demand`` GPUs free for ``duration`` seconds:
        scan the steps from ``ready``; an overloaded step moves the start to its end."""
        times, usage, room = self.times, self.usage, self.capacity - demand
        i, start = bisect.bisect_right(times, ready) - 1, ready
        while True:
            end, j = start + duration - _TOUCH, i
            while j < len(times) and (j == i or times[j] < end) and usage[j] <= room:
                j += 1
            if j == len(times) or (j > i and times[j] >= end):
                return start
            i, start = j + 1, times[j + 1]

    def copy(self) -> Profile:
        return Profile(self.capacity, self.times.copy(), self.usage.copy())

    def add(self, start: float, end: float, demand: int) -> None:
        for t in (start, end):
            i = bisect.bisect_right(self.times, t)
            if self.times[i - 1] != t:
                self.times.insert(i, t)
                self.usage.insert(i, self.usage[i - 1])
        for i in range(bisect.bisect_left(self.times, start), bisect.bisect_left(self.times, end)):
            self.usage[i] += demand


def group_cost(instance: PackingInstance, cand: Candidate, k: int, start: float, weights: Weights) -> float:
    line = cand.offsets[k]
    assert line is not None
    late = sum(start + o > instance.jobs[j].deadline + TOL for j, o in zip(cand.jobs, line, strict=True))
    return weights.completion * sum(start + o for o in line) + weights.late * late


def place_group(
    instance: PackingInstance, cand: Candidate, types: Sequence[int], profiles: list[Profile], weights: Weights
) -> tuple[int, float]:
    """Start one group on the allowed type where its own cost is least; (type, start)."""
    best: tuple[float, float, int, float] | None = None
    for k in types:
        duration = cand.durations[k]
        if duration is None:
            continue
        start = profiles[k].earliest(cand.release, duration, cand.demand)
        key = (group_cost(instance, cand, k, start, weights), start + duration, k, start)
        best = key if best is None or key < best else best
    if best is None:
        raise ValueError(f"group {cand.jobs} may run on none of the types {list(types)}")
    _, end, k, start = best
    profiles[k].add(start, end, cand.demand)
    return k, start


def serial_schedule(
    instance: PackingInstance,
    cands: Sequence[Candidate],
    order: Sequence[tuple[int, Sequence[int]]],
    weights: Weights,
    profiles: list[Profile] | None = None,
) -> Chosen:
    """(candidate, allowed type indices) in priority order -> (candidate, type, start);
    ``profiles`` (changed in place) continues a partial schedule."""
    if profiles is None:
        profiles = [Profile(t.count) for t in instance.gpu_types]
    return [(c, *place_group(instance, cands[c], types, profiles, weights)) for c, types in order]
