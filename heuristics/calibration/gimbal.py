"""GIMBAL Algorithm 1, Multi-Job Coordination Search (section 5.2), on the model of packgap.calibration.

As published:

1. J_max = the job of largest world size; subset1 = {J_max}, subset2 = the others; if
   Priority(subset2) < Priority(subset1) they swap, so subset2 is the high-priority subset
   (lines 1-4; priorities of :mod:`packgap.heuristics.calibration.priority`).
2. swell(subset2) (line 5).
3. Repeat GeneratingPrimitives(subset1, J_max) and measure the local objective (lines 6-8);
   stop after three consecutive attempts without gain (early exit, lines 9-10).
4. GeneratingPrimitives (lines 11-20): split J_max's workers into slow (stragglers) and fast;
   no stragglers: squeeze(subset1); J_max in subset1: swell(slow), squeeze(fast); otherwise
   squeeze the workers co-located with J_max's slow workers.

Mapping of primitives to mechanisms (section 4.2): squeezing or swelling some workers of a job
moves their MPS share one granularity step (LGRR, co-located workers only: a worker alone on
its GPU frees nothing for anyone) and then re-splits the batch of every job whose workers'
speeds changed, co-runners included (LISS, "adaptively", same iteration); squeezing some
workers of a job while swelling others is LISS alone.

Readings where the paper is silent, each stated once here:

* A straggler is a worker whose compute time b / v exceeds the fastest worker's by more than
  ``straggler_tol`` (2 %): the monitor measures forward latency (section 6) and needs a noise
  margin; workers of speed 0 hold no samples and are ignored.
* "No gain" means no improvement on the best objective so far; the best configuration seen
  is the one returned (the search walks past the optimum before it stops, section 5.2).
* Without early exit the search runs until an iteration changes nothing (every target at the
  lowest level) or after ``levels x workers`` iterations, the worst case of section 5.2.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from packgap.calibration import CalibrationInstance
from packgap.calibration.speed import FULL
from packgap.errors import PackgapError
from packgap.heuristics.calibration.liss import liss_split
from packgap.heuristics.calibration.priority import priorities, subset_priority
from packgap.heuristics.calibration.search_cost import Step
from packgap.heuristics.calibration.state import Calibration, free_competition

#: Relative improvement below which an attempt counts as "no gain".
GAIN_TOL = 1e-9


@dataclass(frozen=True)
class Search:
    """The chosen calibration, its objective and every iteration tried (for the cost model)."""

    best: Calibration
    objective: float
    steps: tuple[Step, ...]

    @property
    def evaluations(self) -> int:
        """Configurations measured: the starting one plus one per iteration."""
        return 1 + len(self.steps)


class _Coordinator:
    def __init__(self, instance: CalibrationInstance, granularity: float, straggler_tol: float) -> None:
        self.instance = instance
        self.g = granularity
        self.tol = straggler_tol
        self.cal = free_competition(instance)
        self.partners = instance.partners()
        self.big = instance.j_max()

    def colocated(self, jobs: Iterable[int]) -> list[tuple[int, int]]:
        return [(j, w) for j in jobs for w in range(self.instance.jobs[j].world_size) if self.partners[(j, w)]]

    def lgrr(self, workers: Iterable[tuple[int, int]], delta: float) -> bool:
        """Move each worker's share by ``delta`` within [0, 100]; LISS re-splits every job
        whose workers' speeds changed: the moved jobs and their co-runners, whose speed
        depends on the partner's share (section 4.2: LISS follows LGRR "adaptively" to remove
        the stragglers LGRR creates, on whichever job they appear).

        A job whose workers would all stop (speed 0) keeps its old shares: a paused job
        never finishes, so no policy of section 5.2 can gain from it.
        """
        before = [list(s) for s in self.cal.shares]
        old = self.cal.speeds(self.instance)
        moved: set[int] = set()
        for j, w in workers:
            new = self.cal.shares[j][w] + delta
            if -1e-9 <= new <= FULL + 1e-9:
                self.cal.shares[j][w] = min(FULL, max(0.0, new))
                moved.add(j)
        v = self.cal.speeds(self.instance)
        for j in [j for j in moved if sum(v[j]) <= 0]:
            self.cal.shares[j] = before[j]
            moved.discard(j)
        v = self.cal.speeds(self.instance)
        self.liss(j for j in range(len(v)) if j in moved or v[j] != old[j])
        return bool(moved)

    def liss(self, jobs: Iterable[int]) -> bool:
        v = self.cal.speeds(self.instance)
        changed = False
        for j in jobs:
            split = liss_split(self.instance.jobs[j].batch, v[j])
            changed |= any(
                abs(a - b) > 1e-9 * self.instance.jobs[j].batch for a, b in zip(split, self.cal.samples[j], strict=True)
            )
            self.cal.samples[j] = split
        return changed

    def stragglers(self) -> list[int]:
        """J_max's slow workers by compute time b / v (line 11); the others are its fast ones."""
        v = self.cal.speeds(self.instance)[self.big]
        busy = {w: b / s for w, (b, s) in enumerate(zip(self.cal.samples[self.big], v, strict=True)) if s > 0}
        fastest = min(busy.values())
        return [w for w, t in busy.items() if t > (1 + self.tol) * fastest]

    def primitives(self, low: list[int]) -> str | None:
        """GeneratingPrimitives (lines 11-20); the mechanism used, or None if nothing changed."""
        slow = self.stragglers()
        if not slow:
            return "lgrr" if self.lgrr(self.colocated(low), -self.g) else None
        if self.big in low:
            return "liss" if self.liss([self.big]) else None
        workers = [p for w in slow if (p := self.partners[(self.big, w)]) is not None]
        return "lgrr" if self.lgrr(workers, -self.g) else None


def coordinate(
    instance: CalibrationInstance,
    granularity: float | None = None,
    early_exit: bool = True,
    patience: int = 3,
    reading: str = "text",
    straggler_tol: float = 0.02,
    subset: str = "max",
) -> Search:
    """Algorithm 1 from free competition (all shares 100 %, even batches).

    ``granularity`` (%) is the LGRR step of the search, the instance's by default; any
    multiple of the instance's keeps every share on its grid (Fig. 13 varies it).
    ``reading`` is the sign convention of the job priorities and ``subset`` how a subset's
    priority follows from its jobs' (``max`` or ``min``; :mod:`~packgap.heuristics.calibration.priority`).
    """
    step = instance.granularity if granularity is None else granularity
    if step <= 0 or abs(step / instance.granularity - round(step / instance.granularity)) > 1e-9:
        raise PackgapError(f"granularity {step:g} is not a multiple of the instance's {instance.granularity:g} %")
    c = _Coordinator(instance, step, straggler_tol)
    others = [j for j in range(len(instance.jobs)) if j != c.big]
    prio = priorities(instance, c.cal.times(instance), reading)
    low, high = [c.big], others
    if others and subset_priority(prio, high, subset) < subset_priority(prio, low, subset):
        low, high = high, low
    steps: list[Step] = []
    if c.liss(high):
        steps.append(Step("liss", c.cal.copy(), c.cal.objective(instance)))
    best, best_obj = c.cal.copy(), c.cal.objective(instance)
    levels = int(FULL // step) + 1
    limit = levels * sum(job.world_size for job in instance.jobs)
    fails = 0
    while len(steps) < limit:
        mechanism = c.primitives(low)
        if mechanism is None:
            break
        obj = c.cal.objective(instance)
        steps.append(Step(mechanism, c.cal.copy(), obj))
        if obj < best_obj - GAIN_TOL * abs(best_obj):
            best, best_obj, fails = c.cal.copy(), obj, 0
        else:
            fails += 1
        if early_exit and fails >= patience:
            break
    return Search(best, best_obj, tuple(steps))
