"""Algorithm 1 of SJF-BSBF: shortest job first with best sharing benefit first (section V-B).

Waiting jobs are taken in ascending L_k = t_iter x I_k (lines 1-2; section V-B1's "according
to their used GPU numbers" and the requested GPU-time are the other readings, ``order``,
none of which restores the paper's ordering against SJF: ``sjf-bsbf-crossover``). A job that fits on
free GPUs gets them, consolidated on the fewest nodes (lines 6-7). Otherwise, when free
GPUs plus GPUs holding one job (G_OJ) could serve it (line 9), every job J holding GPUs
alone is paired with it by Algorithm 2 (lines 10-13); the pairs with SF true are sorted by
their t (line 14) and their lone GPUs are taken until G_k is met (lines 15-17). The paper
says free GPUs are not taken first "because the completion time of J_k is determined by
those shared GPUs"; read as: shared GPUs first, free GPUs only to complete the gang
(``free_gpus_first=True`` takes all free GPUs first, as the co-authors' testbed code
Lai-JX/Scheduler does). A job whose pairs all say SF false, or that still lacks GPUs,
goes back to the queue. ``share_flag=False`` ignores Algorithm 2's SF and shares with
every partner beside which a sub-batch fits: not the paper's algorithm, an experiment that
measures what Theorem 1's declines change (the Fig. 6b reproduction runs it).

Readings where the paper is silent: a job takes only as many of a partner's lone GPUs as
it still needs (partial sharing, Fig. 1c); its sub-batch is the smallest b that Algorithm 2
chose over the partners it takes, so its workers fit beside every partner; each pair is
judged with R's remaining solo time at R's sub-batch. Complexity per job:
O(|G_OJ| log2 B + |J_share| log |J_share|), as section V-B4 states. Over a workload, a
(waiting job, holder) pair whose SF is settled false is not evaluated again while the
holder holds GPUs alone (:class:`Settled`), and the evaluations a state of the cluster
needs run as array computations over many pairs
(:func:`~packgap.heuristics.sharing.batch_scaling.pair_table`), in queue order up to the
first job they serve.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from packgap.errors import UnknownNameError
from packgap.heuristics.sharing.batch_scaling import TEXT, WAIT_BATCHES, Rule, pair_table, sharing_table
from packgap.heuristics.sharing.exclusive import solo_length
from packgap.heuristics.sharing.online import LoneHolders, OnlinePolicy, Priority, View, run_online
from packgap.sharing import SharingInstance, SharingSolution
from packgap.sharing.instance import Job


def place_job(
    view: View, job: Job, free_gpus_first: bool = False, pairs: Pairs | None = None, rule: Rule = TEXT
) -> bool:
    """Algorithm 1, lines 3-19, for one job; True when the job was started. ``pairs``:
    Algorithm 2's row for this job against the current G_OJ, when already computed."""
    if view.free_count >= job.gpus:
        view.start(job, view.free_consolidated(job.gpus), view.perf.solo_batch(job))
        return True
    lone = view.lone_holders()
    if view.free_count + int(lone.count.sum()) < job.gpus:
        return False
    if pairs is None:
        table = sharing_table(view.perf, [job.id], lone.remaining_solo, lone.room, lone.models, rule)
        pairs = Pairs(table.share[0], table.batch[0], table.t[0])
    chosen = pairs.share.nonzero()[0]
    if view.free_count + int(lone.count[chosen].sum()) < job.gpus:
        return False
    gpus: list[int] = view.free_consolidated(view.free_count) if free_gpus_first else []
    batch = job.batch
    for k in chosen[np.argsort(pairs.t[chosen], kind="stable")].tolist():
        if len(gpus) >= job.gpus:
            break
        gpus.extend(lone.gpus(k)[: job.gpus - len(gpus)])
        batch = min(batch, int(pairs.batch[k]))
    if len(gpus) < job.gpus:
        gpus.extend(view.free_consolidated(job.gpus - len(gpus)))
    view.start(job, gpus, batch)
    return True


@dataclass(frozen=True)
class Pairs:
    """Algorithm 2's SF, b and t for one waiting job beside each job of G_OJ."""

    share: np.ndarray
    batch: np.ndarray
    t: np.ndarray


def in_order(free_gpus_first: bool, rule: Rule = TEXT) -> OnlinePolicy:
    """Lines 2-20 of Algorithm 1 over the waiting jobs in the queue's order.

    A job is skipped, as the printed loop would skip it, when it needs more GPUs than are
    free or held alone, or when it needs Algorithm 2 and free GPUs plus the lone GPUs of the
    holders it is not settled with (:class:`Settled`) could not serve it. The others that
    need Algorithm 2 before the next job that fits on free GPUs get it as arrays over their
    unsettled pairs, in queue order up to the first one served
    (:meth:`Settled.first_served`); that one starts, and the walk goes on after it.
    """
    known: Settled | None = None

    def policy(view: View) -> None:
        nonlocal known
        known = known or Settled(view, rule)
        at = 0
        while True:
            known.follow()
            room, free = view.shareable(), view.free_count
            queue = view.queue_rows()[at:]
            if room == 0 or not queue.size:
                return
            need = known.gpus[queue]
            # Free GPUs and the lone GPUs of unsettled holders bound what could serve a job.
            candidates = ((need <= free) | (known.settled_gpus[queue] + need <= room)).nonzero()[0]
            if not candidates.size:
                return
            on_free = (need[candidates] <= free).nonzero()[0]
            first_free = int(on_free[0]) if on_free.size else len(candidates)
            sharers = candidates[:first_free]
            k, pairs = known.first_served(queue[sharers], need[sharers]) if sharers.size else (-1, None)
            if k >= 0:
                pick = int(sharers[k])
            elif first_free < len(candidates):
                pick = int(candidates[first_free])
            else:
                return
            started = place_job(view, view.instance.jobs[queue[pick]], free_gpus_first, pairs, rule)
            assert started, "a served job always starts"
            at += pick

    return policy


#: Pairs of Algorithm 2 evaluated at first by :meth:`Settled.first_served` (then twice as many
#: each time): about what one array call costs in fixed overhead, so a served job early in
#: the queue saves the pairs of the jobs after it at the price of few extra calls.
FIRST_PAIRS = 256
#: What :attr:`Settled.pair_state` knows of a pair.
OPEN, SETTLED = 1, 2


class Settled:
    """The settled (waiting job, lone holder) pairs of Algorithm 2
    (:func:`~packgap.heuristics.sharing.batch_scaling.pair_table`): SF false until the holder
    stops holding GPUs alone, so not evaluated again until then. Per waiting job, the lone
    GPUs of the holders it is settled with: free GPUs and the other lone GPUs bound what
    could serve it. For a non-preemptive policy (a job leaves the queue only to run).

    A job evaluated at some instant was evaluated against every holder then; later it needs
    only the holders that came since (their slots are younger) and its open pairs (evaluated,
    not settled), so a call costs time in those pairs, not in waiting jobs x holders."""

    def __init__(self, view: View, rule: Rule = TEXT) -> None:
        jobs = view.instance.jobs
        self.view, self.rule = view, rule
        self.gpus = np.array([j.gpus for j in jobs], dtype=np.intp)
        #: [holder slot, job row]: the pair is unknown (0), open (evaluated, not settled: 1) or settled (2).
        self.pair_state = np.zeros((16, len(jobs)), dtype=np.int8)
        self.slot = np.full(len(jobs), -1, dtype=np.intp)
        self.spare = list(range(16))
        #: When each slot was given, and per job the last slot given when it was evaluated.
        self.birth = np.zeros(16, dtype=np.int64)
        self.seen = np.full(len(jobs), -1, dtype=np.int64)
        self.clock = 0
        self.counts = np.zeros(len(jobs), dtype=np.intp)
        self.settled_gpus = np.zeros(len(jobs), dtype=np.intp)
        self.open_pairs = np.zeros(len(jobs), dtype=np.intp)
        view.perf.fill_ladders(np.arange(len(jobs)))

    def follow(self) -> None:
        """Take the lone GPU counts that changed; a holder with none left loses its pairs."""
        waiting = self.view.queue_rows()
        for row in self.view.take_lone_moves():
            old, new = int(self.counts[row]), int(self.view.lone_count[row])
            self.counts[row] = new
            slot = int(self.slot[row])
            if slot < 0 or old == new:
                continue
            state = self.pair_state[slot, waiting]
            self.settled_gpus[waiting] += (new - old) * (state == SETTLED)
            if new == 0:
                self.open_pairs[waiting] -= state == OPEN
                self.pair_state[slot] = 0
                self.slot[row] = -1
                self.spare.append(slot)

    def slots(self, holders: np.ndarray) -> np.ndarray:
        """The holders' slots, given to those that have none."""
        for row in holders[self.slot[holders] < 0].tolist():
            if not self.spare:
                grown = len(self.pair_state)
                self.pair_state = np.vstack([self.pair_state, np.zeros_like(self.pair_state)])
                self.birth = np.concatenate([self.birth, np.zeros_like(self.birth)])
                self.spare = list(range(grown, 2 * grown))
            slot = self.spare.pop()
            self.clock += 1
            self.slot[row], self.birth[slot] = slot, self.clock
        return self.slot[holders]

    def first_served(self, rows: np.ndarray, need: np.ndarray) -> tuple[int, Pairs | None]:
        """Algorithm 2 for the unsettled pairs of the waiting jobs ``rows`` (queue order):
        the index of the first that free GPUs and its SF-true partners serve (-1: none)
        with its row of the table; settles the pairs that are.

        A job's unsettled pairs are its open ones and those with the holders younger than its
        last evaluation. The jobs are evaluated in queue order, a few pairs first and twice as
        many each time after, up to the first served one: the jobs after it are evaluated when
        the walk comes to them (a pair left unevaluated is one left unknown, so no decision changes)."""
        lone = self.view.lone_holders()
        slots = self.slots(lone.rows)
        births, seen = self.birth[slots], self.seen[rows]
        young = len(slots) - np.searchsorted(np.sort(births), seen, side="right")
        # Pairs up to each job; a block takes at least one job, as many as ``size`` pairs allow.
        ends = np.cumsum(young + self.open_pairs[rows])
        lo, size = 0, FIRST_PAIRS
        while lo < len(rows):
            hi = min(1 + int(np.searchsorted(ends, (ends[lo - 1] if lo else 0) + size)), len(rows))
            block = rows[lo:hi]
            i, k = ((births > seen[lo:hi, None]) | (self.pair_state[slots, block[:, None]] == OPEN)).nonzero()
            served = self._evaluate(lone, slots, block, need[lo:hi], k, i)
            if served is not None:
                return lo + served[0], served[1]
            lo, size = hi, 2 * size
        return -1, None

    def _evaluate(
        self, lone: LoneHolders, slots: np.ndarray, rows: np.ndarray, need: np.ndarray, k: np.ndarray, i: np.ndarray
    ) -> tuple[int, Pairs] | None:
        """Algorithm 2 for the pairs (holder ``k``, job ``i``; ``i`` ascending) of the waiting jobs
        ``rows``, all their unsettled pairs: the first of them served (index and row of the
        table), None when none is."""
        news, count = rows[i], lone.count[k]
        table = pair_table(self.view.perf, news, lone.remaining_solo[k], lone.room[k], lone.models[k], self.rule)
        done, share = table.settled, table.share
        self.pair_state[slots[k], news] = OPEN + done
        # Counts of small integers: exact in the float64 sums bincount returns.
        self.settled_gpus[rows] += np.bincount(i[done], count[done], len(rows)).astype(np.intp)
        self.open_pairs[rows] = np.bincount(i[~done], minlength=len(rows))
        self.seen[rows] = self.clock
        served = (self.view.free_count + np.bincount(i[share], count[share], len(rows)) >= need).nonzero()[0]
        if not served.size:
            return None
        first = i == served[0]
        holders, at = len(lone.rows), k[first]
        pairs = Pairs(np.zeros(holders, dtype=bool), np.zeros(holders, dtype=int), np.zeros(holders))
        pairs.share[at], pairs.batch[at], pairs.t[at] = share[first], table.batch[first], table.t[first]
        return int(served[0]), pairs


def gpu_count(view: View, job: Job) -> float:
    """Section V-B1's words for lines 1-2: priority "according to their used GPU numbers"
    (fewest GPUs first; the earlier arrival among equals)."""
    return job.gpus


def gpu_time(view: View, job: Job) -> float:
    """The requested GPU-time G_k x L_k (a size-based reading of "shortest job")."""
    return job.gpus * solo_length(view, job)


#: Readings of Algorithm 1's queue order (lines 1-2); "L_k" is the printed line 1. Ties go
#: to the earlier arrival (:meth:`View.queue`).
ORDERS: dict[str, Priority] = {"L_k": solo_length, "GPUs": gpu_count, "GPU-time": gpu_time}


def sjf_bsbf(
    instance: SharingInstance,
    free_gpus_first: bool = False,
    order: str = "L_k",
    accumulate: bool = True,
    sign_test: bool = False,
    share_flag: bool = True,
    wait_batch: str = "candidate",
) -> SharingSolution:
    """SJF-BSBF over the whole workload (online, non-preemptive); ``order`` one of :data:`ORDERS`,
    ``accumulate``, ``sign_test``, ``share_flag`` and ``wait_batch`` the readings of Algorithm 2
    (:class:`Rule`)."""
    if order not in ORDERS:
        raise UnknownNameError("Algorithm 1 queue order", order, list(ORDERS))
    if wait_batch not in WAIT_BATCHES:
        raise UnknownNameError("Algorithm 2 wait_batch", wait_batch, list(WAIT_BATCHES))
    rule = Rule(accumulate, sign_test, share_flag, wait_batch)
    return run_online(instance, in_order(free_gpus_first, rule), priority=ORDERS[order])


def bsbf_in_order(
    instance: SharingInstance, priority: Mapping[str, float], free_gpus_first: bool = False
) -> SharingSolution:
    """Algorithm 1's placement with ``priority`` (lower first) in place of L_k: the replay of
    an exact relaxation's completion order as a real schedule."""

    return run_online(instance, in_order(free_gpus_first), priority=lambda view, job: priority[job.id])
