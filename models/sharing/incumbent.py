"""A better first incumbent for the sharing branch and bound: local search over start orders.

The online heuristics start a job as soon as it fits, so none of them lets a long job wait
on idle GPUs for shorter ones that arrive later; on the README's small instances the best of
them is up to 50 % above the non-preemptive optimum (8 jobs, seed 5: the optimum holds the
4,436 s BERT job back for 2,500 s), and a depth-first search reaches such a root decision
last. A schedule here is a start order and, per job, whether it may share a GPU and how
far below the largest fitting sub-batch it runs: the order is decoded by starting each job,
in turn, at the first event (its arrival or a finish) at or after the previous start where
its GPUs are free (empty GPUs first; with sharing on, then GPUs with fewer than C holders,
least memory used first) at that rung of the ladder of sub-batches that fit, a
non-preemptive schedule of the search's own class. First-improvement descent over single
moves (one job elsewhere in the order, its sharing switched, its rung one up or down) from
the best heuristic's start order and from the order of earliest solo finish, then
restarts from the best plan with a few jobs moved, for a fixed number of decodes (no wall
clock, and a fixed random seed: the result is deterministic). Any decoded schedule is
feasible, so the optimum never changes, only how early the search prunes (8 jobs, seed 5:
the incumbent goes from 24,529 to 16,859 s against the optimum's 16,459 s, and the search
from 89,451 to 27,749 nodes).
"""

from __future__ import annotations

import math
import random
import time

from packgap.sharing import Perf, SharingInstance, SharingSolution
from packgap.sharing.perf import ladder
from packgap.sharing.progress import TIME_TOL

#: Decodes per job squared: 10 jobs get 2,000 (one move of every job to every place ~20 times),
#: at most :data:`MAX_DECODES` (a decode costs ~n^2, so larger instances get fewer).
DECODES_PER_PAIR = 20
MAX_DECODES = 4_000

#: A decoded start: (job index, time, GPU ids, sub-batch).
Started = tuple[int, float, tuple[int, ...], int]

#: What is searched: the start order, and per job whether it may share and how many ladder
#: rungs below the largest fitting sub-batch it runs.
Plan = tuple[list[int], list[bool], list[int]]

#: Random moves of a restart of the iterated local search.
KICKS = 3


class Decoder:
    """Decodes a :data:`Plan` into a schedule's starts and sum of completions."""

    def __init__(self, instance: SharingInstance, perf: Perf) -> None:
        self.inst, self.perf = instance, perf
        self.ids = [j.id for j in instance.jobs]
        self.slots = instance.cluster.max_jobs_per_gpu
        self.memory = instance.cluster.gpu_memory_gb
        self.ladders = [[(perf.memory(j.id, b), b) for b in ladder(j.batch)] for j in instance.jobs]
        self.xi = [[perf.xi(a, b) for b in self.ids] for a in self.ids]
        self.solo = [perf.solo_time(j.id, perf.solo_batch(j)) for j in instance.jobs]

    def place(
        self, job: int, holders: list[list[int]], used: list[float], share: bool, shrink: int
    ) -> tuple[tuple[int, ...], int]:
        """GPUs and sub-batch of ``job`` started now (empty tuple: it does not fit): the
        sub-batch ``shrink`` rungs below the largest that fits (the smallest if fewer)."""
        open_gpus = [g for g, h in enumerate(holders) if not h or (share and len(h) < self.slots)]
        open_gpus.sort(key=lambda g: (bool(holders[g]), used[g], g))
        need = self.inst.jobs[job].gpus
        if len(open_gpus) < need:
            return (), 0
        chosen = tuple(sorted(open_gpus[:need]))
        room = self.memory - max(used[g] for g in chosen)
        fits = [b for m, b in self.ladders[job] if m <= room + 1e-9]
        return (chosen, fits[min(shrink, len(fits) - 1)]) if fits else ((), 0)

    def decode(self, plan: Plan, cutoff: float = math.inf) -> tuple[float, list[Started]]:
        """Sum of completions and starts of the decoded schedule (inf once past ``cutoff``)."""
        jobs, (order, share, shrink) = self.inst.jobs, plan
        holders: list[list[int]] = [[] for _ in range(self.inst.cluster.gpus)]
        used = [0.0] * len(holders)
        running: dict[int, tuple[tuple[int, ...], int, float, float]] = {}
        starts: list[Started] = []
        now, done, k = 0.0, 0.0, 0
        while k < len(order) or running:
            if k < len(order) and jobs[order[k]].arrival <= now + TIME_TOL:
                j = order[k]
                gpus, b = self.place(j, holders, used, share[j], shrink[j])
                if gpus:
                    for g in gpus:
                        holders[g].append(j)
                        used[g] += self.perf.memory(self.ids[j], b)
                    running[j] = (gpus, b, float(jobs[j].iterations), self.perf.t_iter(self.ids[j], b))
                    starts.append((j, now, gpus, b))
                    k += 1
                    continue
            # Eqs. 5-7: the pace of the slowest worker, beside its worst partner.
            rates = {
                r: 1.0 / (t * max([self.xi[r][h] for g in gpus for h in holders[g] if h != r], default=1.0))
                for r, (gpus, _, _, t) in running.items()
            }
            finishes = {r: left / rates[r] for r, (_, _, left, _) in running.items()}
            waits = k < len(order) and jobs[order[k]].arrival > now + TIME_TOL
            arrival = jobs[order[k]].arrival if waits else math.inf
            step = min([*finishes.values(), arrival - now])
            # Land exactly on an arrival, as the search does.
            later = arrival if arrival - now <= step else now + step
            for r, f in finishes.items():
                gpus, b, left, t = running[r]
                if f <= step * (1 + 1e-12):
                    done += now + f
                    del running[r]
                    for g in gpus:
                        holders[g].remove(r)
                        used[g] -= self.perf.memory(self.ids[r], b)
                else:
                    running[r] = (gpus, b, left - rates[r] * step, t)
            now = later
            if done >= cutoff:
                return math.inf, []
        return done, starts


def improve(
    instance: SharingInstance, perf: Perf, start: SharingSolution | None, every_batch: bool, deadline: float
) -> tuple[float, list[Started]]:
    """The sum of completions and the starts of the best schedule that the local search of the
    module docstring finds from ``start``'s start order and from the order of earliest solo
    finish; without ``every_batch`` every job takes the largest sub-batch that fits (the
    search's restricted class). It also stops at ``deadline`` (``time.perf_counter``), a stop
    for time limits only: well inside them the result does not depend on the clock."""
    decoder = Decoder(instance, perf)
    index = {j.id: i for i, j in enumerate(instance.jobs)}
    n = len(index)
    seeds = [sorted(range(n), key=lambda j: (instance.jobs[j].arrival + decoder.solo[j], j))]
    if start is not None:
        seeds.insert(0, [index[j.id] for j in sorted(start.jobs, key=lambda s: (s.start, index[s.id]))])
    search = LocalSearch(decoder, min(MAX_DECODES, DECODES_PER_PAIR * n * n), every_batch, deadline)
    for seed in seeds:
        for shared in (True, False):
            search.descend((seed, [shared] * n, [0] * n))
    # Iterated local search: restarts from the best plan with a few jobs moved at random
    # (a fixed seed, so the same instance always gets the same incumbent).
    rng = random.Random(n)
    while not search.spent():
        order, share, shrink = search.best_plan
        order = list(order)
        for _ in range(KICKS):
            j = rng.randrange(n)
            order.remove(j)
            order.insert(rng.randrange(n), j)
        search.descend((order, share, shrink))
    return search.best, search.best_starts


class LocalSearch:
    """First-improvement descent over single moves of a :data:`Plan`; keeps the best plan seen
    and stops once ``budget`` decodes are spent or the clock passes ``deadline``."""

    def __init__(self, decoder: Decoder, budget: int, every_batch: bool, deadline: float) -> None:
        self.decoder, self.budget, self.every_batch, self.deadline = decoder, budget, every_batch, deadline
        self.best = math.inf
        self.best_starts: list[Started] = []
        self.best_plan: Plan = ([], [], [])

    def neighbours(self, plan: Plan, j: int) -> list[Plan]:
        order, share, shrink = plan
        at = order.index(j)
        rest = order[:at] + order[at + 1 :]
        out = [([*rest[:p], j, *rest[p:]], share, shrink) for p in range(len(order)) if p != at]
        out.append((order, [*share[:j], not share[j], *share[j + 1 :]], shrink))
        for step in (1, -1) if self.every_batch else ():
            if 0 <= shrink[j] + step < len(self.decoder.ladders[j]):
                out.append((order, share, [*shrink[:j], shrink[j] + step, *shrink[j + 1 :]]))
        return out

    def descend(self, plan: Plan) -> None:
        value, starts = self.decoder.decode(plan)
        self.budget -= 1
        improved = True
        while improved and not self.spent():
            improved = False
            for j in range(len(plan[0])):
                for other in self.neighbours(plan, j):
                    self.budget -= 1
                    found, found_starts = self.decoder.decode(other, value)
                    if found < value:
                        value, starts, plan, improved = found, found_starts, other, True
                        break
                if self.spent():
                    break
        if value < self.best:
            self.best, self.best_starts, self.best_plan = value, starts, plan

    def spent(self) -> bool:
        return self.budget <= 0 or time.perf_counter() > self.deadline
