"""Lower bound at a node of the sharing branch and bound (:mod:`packgap.models.sharing.branch_bound`).

A node is a time ``now``, the running jobs (GPUs, sub-batch, iterations left) and the jobs
not started yet. The bound is a lower bound on the sum of completion times of every
non-preemptive schedule that continues the node (eq. 15; the paper's model, eqs. 5-10).

1. Each job on its own, given who holds the GPUs now.

   * A running job r runs at most at its solo pace 1 / t_iter(b_r) (xi >= 1, eqs. 5-7), so
     it finishes no earlier than f_r = now + P_r, P_r = left_r t_iter(b_r). While a partner h
     still holds one of its GPUs it runs at 1 / xi(r, h) of that pace, and h stays at least
     until f_h (h is not preempted, eq. 10): solving progress >= left_r gives
     C_r >= now + P_r + (1 - 1 / xi) min(f_h - now, xi P_r) for each partner h. One pass
     uses the solo f_h, a second pass the first pass's values (both are lower bounds, and
     the formula grows with f_h).
   * A waiting job j needs G_j GPUs, each holding fewer than C jobs (eq. 9) whose memory
     leaves room for one of j's workers. Jobs started later only take room, so the running
     jobs alone decide when a GPU can first take j: when enough of its holders have left,
     holder h no earlier than f_h. Starting at t on a GPU where holders stay, j's sub-batch
     is at most the largest that fits beside them (Algorithm 2's ladder), fixed for the
     whole run, so j needs at least P_j(room) = I_j t_iter(b) alone, and it runs at
     1 / xi(j, h) of that pace until h leaves, which costs it (1 - 1 / xi) min(f_h - t,
     xi P_j(room)). Hence C_j >= min over t of t + (the G_j-th smallest such time over the
     GPUs open to j at t), t >= max(now, a_j); for one choice of GPUs this grows with t,
     and the choice changes only at some f_h, so the minimum is over t in {max(now, a_j)}
     and the f_h after it. The least such t is j's earliest start.

2. Pooled capacity (:mod:`packgap.models.sharing.bound`): all GPUs as one machine that serves a job
   its G_j GPUs' worth of work at no less than min(1, xi_j / C) GPU-seconds per solo second
   (xi_j: j's least ratio beside any partner), preemptive shortest remaining processing
   time, optimal on it (Schrage 1968). A waiting job is released at its earliest start
   from item 1 (no GPU can take it before), a running job at ``now``.

3. Pairs (:mod:`packgap.models.sharing.pair_bound`): two jobs, at least one waiting, whose GPU
   demands exceed the cluster share a GPU whenever they overlap; Theorem 1 with their
   earliest starts and solo times bounds C_a + C_b. Over disjoint pairs (taken greedily by
   gain) the larger of that and the two jobs' item-1 bounds replaces their sum.

4. Blocks (:mod:`packgap.models.sharing.subset_bound`, when the search built its table): the
   running jobs' item-1 finishes plus the best partition of the waiting jobs into blocks,
   each bounded by the larger of its sub-instance's optimum and its jobs' item-1 bounds; or
   the table's best partition of the running and waiting jobs together, bounded alike. The
   subset bound holds for any set of the instance's jobs in any schedule, and a schedule
   below the node is one (its part before ``now`` is the node's), so a block may hold jobs
   that have started: README 10 jobs x 16 GPUs seed 3 is proven in 2,726 nodes with them,
   12,023 without; seed 6's bound after 60 s goes from 4.8 % to 0.8 % below its best schedule
   (measured).

The node bound is the largest of items 1 + 3, 2 and 4.
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from packgap.models.sharing.bound import min_solo_time
from packgap.models.sharing.pair_bound import pair_bound
from packgap.models.sharing.subset_bound import SubsetBound, mask_of
from packgap.sharing import Perf, SharingInstance
from packgap.sharing.perf import ladder

#: Running jobs: job index -> (GPU ids, sub-batch, iterations left).
Running = dict[int, tuple[tuple[int, ...], int, float]]

#: GPU memory slack (GB) of the fit test, as in Algorithm 2's check.
MEMORY_TOL = 1e-9


def srpt(release: Sequence[float], work: Sequence[float], speed: float) -> float:
    """Sum of completion times of preemptive SRPT on one machine of ``speed`` (optimal)."""
    order = sorted(range(len(work)), key=lambda i: release[i])
    left: list[tuple[float, int]] = []
    total, now, k = 0.0, 0.0, 0
    while k < len(order) or left:
        if not left:
            now = max(now, release[order[k]])
        while k < len(order) and release[order[k]] <= now:
            heapq.heappush(left, (work[order[k]], order[k]))
            k += 1
        rest, i = heapq.heappop(left)
        nxt = release[order[k]] if k < len(order) else math.inf
        if now + rest / speed <= nxt:
            now += rest / speed
            total += now
        else:
            heapq.heappush(left, (rest - (nxt - now) * speed, i))
            now = nxt
    return total


def _penalty(xi: float, hold_until: float, start: float, solo: float) -> float:
    """Least delay of a job of solo time ``solo`` that shares with a partner from ``start``
    until ``hold_until`` at 1 / ``xi`` of its pace."""
    return (1.0 - 1.0 / xi) * min(hold_until - start, xi * solo)


@dataclass(frozen=True)
class Snapshot:
    """GPUs at ``time``: how many are ``empty``, and for each set of holders that stay with
    room for one more job, (holders, GB free, how many GPUs)."""

    time: float
    empty: int
    shared: list[tuple[tuple[int, ...], float, int]]


@dataclass(frozen=True)
class Estimate:
    """The bound at a node: each job's earliest ``completion`` (running and waiting) and
    earliest start (``release``), each running job's ``solo`` time left, the sum of the
    completions (``plain``), the pairs of item 3 with their gains, ``alone`` = plain +
    gains, and the node bound ``value`` (all on completions, in seconds)."""

    completion: dict[int, float]
    release: dict[int, float]
    solo: dict[int, float]
    plain: float
    pairs: list[tuple[int, int, float]]
    alone: float
    value: float
    complete: bool = True


class NodeBound:
    """The bound of the module docstring; ``solo`` holds each job's least solo time.
    ``strong`` False drops item 1's use of the running jobs (solo paces, releases at
    max(now, a_j)): the plain bound of :mod:`packgap.models.sharing.bound` at a node; ``subsets``
    is item 4's table (None: no item 4)."""

    def __init__(
        self,
        instance: SharingInstance,
        perf: Perf,
        solo: Sequence[float],
        *,
        strong: bool = True,
        subsets: SubsetBound | None = None,
    ) -> None:
        self.strong, self.subsets = strong, subsets
        jobs = instance.jobs
        ids = [j.id for j in jobs]
        self.perf, self.ids, self.solo = perf, ids, list(solo)
        self.demand = [j.gpus for j in jobs]
        self.arrival = [j.arrival for j in jobs]
        self.iterations = [j.iterations for j in jobs]
        self.xi = [[perf.xi(a, b) for b in ids] for a in ids]
        self.ladders = [
            [(perf.memory(i, b), j.iterations * perf.t_iter(i, b)) for b in ladder(j.batch)]
            for i, j in zip(ids, jobs, strict=True)
        ]
        self.least_memory = [steps[-1][0] for steps in self.ladders]
        self._solo_in: dict[tuple[int, float], float | None] = {}
        self.slots = instance.cluster.max_jobs_per_gpu
        self.gpu_memory = instance.cluster.gpu_memory_gb
        self.gpus = instance.cluster.gpus
        share = [min([1.0, *(self.xi[a][b] / self.slots for b in range(len(ids)) if b != a)]) for a in range(len(ids))]
        self.capacity = [j.gpus * f for j, f in zip(jobs, share, strict=True)]

    def solo_in(self, j: int, room: float) -> float | None:
        """Solo time of ``j`` at the largest sub-batch whose worker fits in ``room`` GB (None: none
        fits); the sub-batch is fixed for the whole run, so a start beside a holder whose memory
        forces a smaller sub-batch pays it after the holder leaves too."""
        key = (j, room)
        if key not in self._solo_in:
            self._solo_in[key] = next((t for m, t in self.ladders[j] if m <= room + MEMORY_TOL), None)
        return self._solo_in[key]

    def finishes(
        self, now: float, solo: Mapping[int, float], classes: Mapping[tuple[int, ...], int]
    ) -> dict[int, float]:
        """Each running job's earliest finish f_r (item 1, two passes over its partners);
        ``solo`` holds each running job's time left at its solo pace."""
        finish = {r: now + p for r, p in solo.items()}
        partners: dict[int, set[int]] = {r: set() for r in solo}
        for holders in classes:
            for r in holders:
                partners[r].update(h for h in holders if h != r)
        for _ in range(2 if self.strong else 0):
            finish = {
                r: now
                + solo[r]
                + max((_penalty(self.xi[r][h], finish[h], now, solo[r]) for h in partners[r]), default=0.0)
                for r in solo
            }
        return finish

    def snapshots(
        self,
        now: float,
        finish: Mapping[int, float],
        memory: Mapping[int, float],
        classes: Mapping[tuple[int, ...], int],
    ) -> list[Snapshot]:
        """The GPUs a waiting job might take, at ``now`` and at each earliest finish after it."""
        out = []
        for t in sorted({now, *(f for f in finish.values() if f > now)}):
            empty = 0
            shared: dict[tuple[int, ...], int] = {}
            for holders, count in classes.items():
                stay = tuple(h for h in holders if finish[h] > t)
                if not stay:
                    empty += count
                elif len(stay) < self.slots:
                    shared[stay] = shared.get(stay, 0) + count
            rooms = [(stay, self.gpu_memory - sum(memory[h] for h in stay), c) for stay, c in shared.items()]
            out.append(Snapshot(t, empty, rooms))
        return out

    def waiting(
        self, j: int, now: float, finish: Mapping[int, float], snapshots: Sequence[Snapshot]
    ) -> tuple[float, float]:
        """(earliest start, earliest completion) of waiting job ``j`` (item 1)."""
        first = max(now, self.arrival[j])
        p, need = self.solo[j], self.demand[j]
        if not self.strong:
            return first, first + p
        alone = self.solo_in(j, self.gpu_memory)
        assert alone is not None, "the instance reader rejects jobs that fit no GPU"
        k = max(0, bisect.bisect_right([snap.time for snap in snapshots], first) - 1)
        best, start = math.inf, math.inf
        for snap in snapshots[k:]:
            t = max(first, snap.time)
            if t + p >= best:
                break
            if snap.empty >= need:
                start, best = min(start, t), min(best, t + alone)
                continue
            costs = [(alone, snap.empty)]
            for stay, room, count in snap.shared:
                run = self.solo_in(j, room)
                if run is not None:
                    costs.append((run + max(_penalty(self.xi[j][h], finish[h], t, run) for h in stay), count))
            costs.sort()
            got = 0
            for cost, count in costs:
                got += count
                if got >= need:
                    start, best = min(start, t), min(best, t + cost)
                    break
        return start, best

    def estimate(
        self,
        now: float,
        running: Running,
        pending: Sequence[int],
        holders: Sequence[Sequence[int]],
        enough: float = math.inf,
    ) -> Estimate:
        """The bound at a node; ``holders`` lists the running jobs on each GPU. Once a part of
        the bound reaches ``enough`` the rest is skipped (``complete`` False): the node's
        bound is then that part, already a valid bound of at least ``enough``."""
        classes: dict[tuple[int, ...], int] = {}
        for h in holders:
            key = tuple(sorted(h))
            classes[key] = classes.get(key, 0) + 1
        memory = {r: self.perf.memory(self.ids[r], b) for r, (_, b, _) in running.items()}
        solo = {r: left * self.perf.t_iter(self.ids[r], b) for r, (_, b, left) in running.items()}
        finish = self.finishes(now, solo, classes)
        completion, release = dict(finish), dict.fromkeys(running, now)
        plain = started = sum(finish.values())
        blocks, waiting = -math.inf, 0
        if self.subsets is not None:
            waiting = mask_of(pending)
            blocks = started + self.subsets.best[waiting]
            if blocks >= enough:
                return Estimate(completion, release, solo, plain, [], plain, blocks, complete=False)
        snapshots = self.snapshots(now, finish, memory, classes) if self.strong else []
        for j in pending:
            if plain >= enough:
                return Estimate(completion, release, solo, plain, [], plain, plain, complete=False)
            release[j], completion[j] = self.waiting(j, now, finish, snapshots)
            plain += completion[j]
        pairs = self.pairs(solo, memory, completion, release, pending) if self.strong else []
        alone = plain + sum(gain for _, _, gain in pairs)
        if alone >= enough:
            return Estimate(completion, release, solo, plain, pairs, alone, alone, complete=False)
        if self.subsets is not None:
            together = self.subsets.refined(waiting | mask_of(running), completion)
            blocks = max(started + self.subsets.refined(waiting, completion), together)
        work = [self.capacity[j] * solo.get(j, self.solo[j]) for j in release]
        value = max(alone, blocks, srpt(list(release.values()), work, float(self.gpus)))
        return Estimate(completion, release, solo, plain, pairs, alone, value)

    def pairs(
        self,
        solo: Mapping[int, float],
        memory: Mapping[int, float],
        completion: Mapping[int, float],
        release: Mapping[int, float],
        pending: Sequence[int],
    ) -> list[tuple[int, int, float]]:
        """Item 3: disjoint conflicting pairs, at least one job waiting, whose pair bound
        beats the sum of their own bounds, taken greedily by that gain."""
        gains = []
        jobs = [*solo, *pending]
        for k, a in enumerate(jobs):
            a_running = a in solo
            p_a = solo[a] if a_running else self.solo[a]
            mem_a = memory[a] if a_running else self.least_memory[a]
            for b in jobs[k + 1 :]:
                if b in solo or self.demand[a] + self.demand[b] <= self.gpus:
                    continue
                share = self.slots >= 2 and mem_a + self.least_memory[b] <= self.gpu_memory + MEMORY_TOL
                both = pair_bound(
                    release[a],
                    release[b],
                    p_a,
                    self.solo[b],
                    self.xi[a][b],
                    self.xi[b][a],
                    share=share,
                    a_running=a_running,
                )
                gain = both - completion[a] - completion[b]
                if gain > 0:
                    gains.append((gain, a, b))
        gains.sort(reverse=True)
        taken: set[int] = set()
        out = []
        for gain, a, b in gains:
            if a not in taken and b not in taken:
                taken.update((a, b))
                out.append((a, b, gain))
        return out

    def __call__(self, now: float, running: Running, pending: Sequence[int], holders: Sequence[Sequence[int]]) -> float:
        """Lower bound on the sum of the completion times of the running and waiting jobs."""
        return self.estimate(now, running, pending, holders).value

    def root(self) -> float:
        """The bound at the root: at time 0, no job started and every GPU empty."""
        return self(0.0, {}, list(range(len(self.ids))), [[] for _ in range(self.gpus)])

    def start(self, node: Estimate, j: int, now: float, partners: Collection[int], batch: int) -> float:
        """A lower bound on the sum of completions below the child where waiting job ``j``
        starts at ``now`` beside ``partners`` (running) at sub-batch ``batch``, read off its
        parent ``node`` without building the child. Every per-job bound of the parent holds
        below the child too; ``j`` runs at ``batch``, slowed by each partner h until
        min(C_h, C_j), C_h >= h's bound at the parent; and each partner h is slowed by ``j``
        until min(C_j, C_h) with C_j >= that bound of ``j``. With item 4's table, the jobs still
        waiting below the child take item 4's blocks instead, beside those bounds of the
        running jobs and ``j``."""
        bound = node.completion
        run = self.iterations[j] * self.perf.t_iter(self.ids[j], batch)
        if self.strong:
            run += max((_penalty(self.xi[j][h], bound[h], now, run) for h in partners), default=0.0)
        mine = max(bound[j], now + run)
        slower = sum(
            max(0.0, now + node.solo[h] + _penalty(self.xi[h][j], mine, now, node.solo[h]) - bound[h])
            for h in partners
            if self.strong
        )
        kept = sum(gain for a, b, gain in node.pairs if a != j and b != j and a not in partners and b not in partners)
        quick = node.plain - bound[j] + mine + slower + kept
        if self.subsets is None or not node.complete:
            return quick
        waiting = mask_of(w for w in node.release if w not in node.solo and w != j)
        started = sum(bound[r] for r in node.solo)
        return max(quick, started + slower + mine + self.subsets.refined(waiting, bound))


def root_bound(instance: SharingInstance, subsets: SubsetBound | None = None) -> float:
    """The bound at the root, no job started and every GPU empty: a lower bound on the sum of
    completion times of every non-preemptive schedule of ``instance`` (item 3 needs the
    non-preemption, so Tiresias may go below it); ``subsets``: item 4's table. ``class-bound``
    raises its run LP to it: on the README's 6- and 8-job instances (seeds 1-10) the root bound
    without the table lies 7.7 % and 10.8 % below exact-bb's optimum on average, the run LP 7.5 %
    and 8.8 %, the larger of the two 6.3 % and 8.0 %, and with blocks of up to four jobs 2.0 % and
    3.9 % (measured, issue 35)."""
    solo = [min_solo_time(instance, i) for i in range(len(instance.jobs))]
    return NodeBound(instance, Perf(instance), solo, subsets=subsets).root()
