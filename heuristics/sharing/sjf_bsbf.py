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
from packgap.heuristics.sharing.batch_scaling import TEXT, Rule, pair_table, sharing_table
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
    chosen = np.flatnonzero(pairs.share)
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
            unsettled = room - known.settled_gpus[queue]
            candidates = np.flatnonzero((need <= room) & ((need <= free) | (unsettled >= need)))
            if not candidates.size:
                return
            on_free = np.flatnonzero(need[candidates] <= free)
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
        #: [holder slot, job row]: the pair is settled; it is open (evaluated, not settled).
        self.marks = np.zeros((16, len(jobs)), dtype=bool)
        self.open = np.zeros((16, len(jobs)), dtype=bool)
        self.slot = np.full(len(jobs), -1, dtype=np.intp)
        self.spare = list(range(16))
        #: When each slot was given, and per job the last slot given when it was evaluated.
        self.birth = np.zeros(16, dtype=np.int64)
        self.seen = np.full(len(jobs), -1, dtype=np.int64)
        self.clock = 0
        self.counts = np.zeros(len(jobs), dtype=np.intp)
        self.settled_gpus = np.zeros(len(jobs), dtype=np.intp)
        self.open_pairs = np.zeros(len(jobs), dtype=np.intp)

    def follow(self) -> None:
        """Take the lone GPU counts that changed; a holder with none left loses its pairs."""
        waiting = self.view.queue_rows()
        for row in self.view.take_lone_moves():
            old, new = int(self.counts[row]), int(self.view.lone_count[row])
            self.counts[row] = new
            slot = int(self.slot[row])
            if slot < 0 or old == new:
                continue
            self.settled_gpus[waiting] += (new - old) * self.marks[slot, waiting]
            if new == 0:
                self.open_pairs[waiting] -= self.open[slot, waiting]
                self.marks[slot] = self.open[slot] = False
                self.slot[row] = -1
                self.spare.append(slot)

    def slots(self, holders: np.ndarray) -> np.ndarray:
        """The holders' slots, given to those that have none."""
        for row in holders[self.slot[holders] < 0].tolist():
            if not self.spare:
                grown = len(self.marks)
                self.marks, self.open = (np.vstack([x, np.zeros_like(x)]) for x in (self.marks, self.open))
                self.birth = np.concatenate([self.birth, np.zeros_like(self.birth)])
                self.spare = list(range(grown, 2 * grown))
            slot = self.spare.pop()
            self.clock += 1
            self.slot[row], self.birth[slot] = slot, self.clock
        return self.slot[holders]

    def unknown(self, slots: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (holder index, job index) pairs of ``rows`` not settled: holders younger than
        the job's last evaluation, and its open pairs."""
        order = np.argsort(self.birth[slots], kind="stable")
        start = np.searchsorted(self.birth[slots][order], self.seen[rows], side="right")
        young = len(slots) - start
        job = np.repeat(np.arange(len(rows)), young)
        offsets = np.cumsum(young) - young
        holder = order[start[job] + np.arange(len(job)) - offsets[job]]
        reopen = np.flatnonzero(self.open_pairs[rows] > 0)
        again, col = np.nonzero(self.open[slots[:, None], rows[reopen][None, :]])
        return np.concatenate([holder, again]), np.concatenate([job, reopen[col]])

    def first_served(self, rows: np.ndarray, need: np.ndarray) -> tuple[int, Pairs | None]:
        """Algorithm 2 for the unsettled pairs of the waiting jobs ``rows`` (queue order):
        the index of the first that free GPUs and its SF-true partners serve (-1: none)
        with its row of the table; settles the pairs that are.

        The jobs are evaluated in queue order, a few pairs first and twice as many each time
        after, up to the first served one: the jobs after it are evaluated when the walk comes
        to them (a pair left unevaluated is one left unknown, so no decision changes)."""
        lone = self.view.lone_holders()
        slots = self.slots(lone.rows)
        k, i = self.unknown(slots, rows)
        by_job = np.argsort(i, kind="stable")
        k, i = k[by_job], i[by_job]
        bounds = np.searchsorted(i, np.arange(len(rows) + 1))
        lo, size = 0, FIRST_PAIRS
        while lo < len(rows):
            hi = min(max(int(np.searchsorted(bounds, bounds[lo] + size)), lo + 1), len(rows))
            pairs = slice(int(bounds[lo]), int(bounds[hi]))
            served = self._evaluate(lone, slots, rows[lo:hi], need[lo:hi], k[pairs], i[pairs] - lo)
            if served is not None:
                return lo + served[0], served[1]
            lo, size = hi, 2 * size
        return -1, None

    def _evaluate(
        self, lone: LoneHolders, slots: np.ndarray, rows: np.ndarray, need: np.ndarray, k: np.ndarray, i: np.ndarray
    ) -> tuple[int, Pairs] | None:
        """Algorithm 2 for the pairs (holder ``k``, job ``i``) of the waiting jobs ``rows``: the
        first of them served (index and row of the table), None when none is."""
        view = self.view
        table = pair_table(view.perf, rows[i], lone.remaining_solo[k], lone.room[k], lone.models[k], self.rule)
        pair_slots, pair_rows = slots[k], rows[i]
        done = table.settled
        self.marks[pair_slots[done], pair_rows[done]] = True
        np.add.at(self.settled_gpus, pair_rows[done], lone.count[k[done]])
        was_open = self.open[pair_slots, pair_rows]
        np.add.at(self.open_pairs, pair_rows, (~done).astype(np.intp) - was_open)
        self.open[pair_slots, pair_rows] = ~done
        self.seen[rows] = self.clock
        shared = np.zeros(len(rows), dtype=np.intp)
        np.add.at(shared, i, table.share * lone.count[k])
        served = np.flatnonzero(view.free_count + shared >= need)
        if not served.size:
            return None
        first = i == served[0]
        share, batch, t = (
            np.zeros(len(lone.rows), dtype=bool),
            np.zeros(len(lone.rows), dtype=int),
            np.zeros(len(lone.rows)),
        )
        share[k[first]], batch[k[first]], t[k[first]] = table.share[first], table.batch[first], table.t[first]
        return int(served[0]), Pairs(share, batch, t)


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
) -> SharingSolution:
    """SJF-BSBF over the whole workload (online, non-preemptive); ``order`` one of :data:`ORDERS`,
    ``accumulate``, ``sign_test`` and ``share_flag`` the readings of Algorithm 2 (:class:`Rule`)."""
    if order not in ORDERS:
        raise UnknownNameError("Algorithm 1 queue order", order, list(ORDERS))
    rule = Rule(accumulate, sign_test, share_flag)
    return run_online(instance, in_order(free_gpus_first, rule), priority=ORDERS[order])


def bsbf_in_order(
    instance: SharingInstance, priority: Mapping[str, float], free_gpus_first: bool = False
) -> SharingSolution:
    """Algorithm 1's placement with ``priority`` (lower first) in place of L_k: the replay of
    an exact relaxation's completion order as a real schedule."""

    return run_online(instance, in_order(free_gpus_first), priority=lambda view, job: priority[job.id])
