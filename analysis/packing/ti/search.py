"""The state the levels of :mod:`packgap.analysis.packing.ti.driver` share: data, best answer, best bound, clock.

Every answer is validated and scored by the family's evaluator before it counts; bounds are
kept in the objective's units (the LP works without the objective's constant).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from packgap.analysis.packing.ti.local_search import local_search
from packgap.deadline import check
from packgap.errors import ValidationError
from packgap.models.packing import ti_grid
from packgap.models.packing.bounds import lower_bound
from packgap.models.packing.data import candidates, place, weights
from packgap.models.packing.serial import serial_schedule
from packgap.packing import FAMILY, PackingInstance, PackingSolution


class Search:
    """The state shared by the levels: data, best answer, best bound, clock."""

    def __init__(self, instance: PackingInstance, hints: Sequence[PackingSolution], deadline: float | None) -> None:
        self.instance = instance
        self.deadline = deadline
        self.cands = candidates(instance)
        self.opts = ti_grid.options(instance, self.cands)
        self.w = weights(instance)
        self.counts = np.array([t.count for t in instance.gpu_types])
        self.n = len(instance.jobs)
        self.by_key = {
            (int(c), int(k)): o for o, (c, k) in enumerate(zip(self.opts.candidate, self.opts.kind, strict=True))
        }
        singles = sorted((c.release, i) for i, c in enumerate(self.cands) if len(c.jobs) == 1)
        alone = [(i, range(len(instance.gpu_types))) for _, i in singles]
        self.best = self._scored(place(instance, self.cands, serial_schedule(instance, self.cands, alone, self.w)))
        for hint in hints:
            check()
            self.offer(hint)
        self.bound = lower_bound(instance).objective
        self.settled = float("nan")  # the answer local search stopped at a local optimum from

    def time_left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def out_of_time(self) -> bool:
        left = self.time_left()
        return left is not None and left <= 0.05

    def _scored(self, solution: PackingSolution) -> tuple[float, PackingSolution]:
        FAMILY.validate(self.instance, solution)
        return FAMILY.evaluate(self.instance, solution).objective, solution

    def offer(self, solution: PackingSolution) -> None:
        """Keep ``solution`` when it validates and beats the best answer."""
        try:
            scored = self._scored(solution)
        except ValidationError:
            return
        if scored[0] < self.best[0]:
            self.best = scored

    def offer_chosen(self, chosen: list[tuple[int, int, float]]) -> None:
        self.offer(place(self.instance, self.cands, chosen))

    def improve(self, seconds: float) -> None:
        """Local search (:mod:`packgap.analysis.packing.ti.local_search`) from the best answer,
        unless it already stopped at a local optimum from this answer."""
        if self.settled == self.best[0]:
            return
        index = self.instance.job_index()
        by_jobs = {frozenset(c.jobs): i for i, c in enumerate(self.cands)}
        chosen = [
            (by_jobs[frozenset(index[j] for j in g.jobs)], self.instance.type_names.index(g.gpu_type), g.start)
            for g in self.best[1].groups
        ]
        if all(self.cands[c].durations[k] is not None for c, k, _ in chosen):
            found, settled = local_search(self.instance, self.cands, chosen, self.w, seconds)
            self.offer_chosen(found)
            if settled:
                self.settled = self.best[0]

    def ceiling(self) -> float:
        """The best answer's cost in LP units (objective without its constant)."""
        return self.best[0] - self.w.constant

    def raise_bound(self, lp_bound: float) -> None:
        value = lp_bound + self.w.constant
        self.bound = max(self.bound, value - 1e-12 * max(1.0, abs(value)))

    def gap(self) -> float:
        return max(0.0, self.best[0] - self.bound) / max(abs(self.best[0]), 1e-9)

    def columns_of(self, grid: ti_grid.Grid, solution: PackingSolution) -> ti_grid.ColumnSet:
        """The columns a solution maps to on ``grid`` (start period, or the tail)."""
        index = self.instance.job_index()
        by_jobs = {frozenset(c.jobs): i for i, c in enumerate(self.cands)}
        option, period = [], []
        for g in solution.groups:
            c = by_jobs.get(frozenset(index[j] for j in g.jobs))
            o = None if c is None else self.by_key.get((c, self.instance.type_names.index(g.gpu_type)))
            if o is not None:
                option.append(o)
                period.append(min(int(g.start // grid.period), grid.periods))
        return ti_grid.columns(self.opts, grid, self.w, np.array(option, dtype=np.int64), np.array(period))
