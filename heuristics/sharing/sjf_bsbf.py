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
O(|G_OJ| log2 B + |J_share| log |J_share|), as section V-B4 states; the Theorem 1
evaluations of all waiting jobs that need them run as one array computation
(:func:`~packgap.heuristics.sharing.batch_scaling.sharing_table`) per state of the cluster.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from packgap.errors import UnknownNameError
from packgap.heuristics.sharing.batch_scaling import TEXT, Rule, sharing_table
from packgap.heuristics.sharing.exclusive import solo_length
from packgap.heuristics.sharing.online import OnlinePolicy, Priority, View, run_online
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
        gpus.extend(lone.gpus[k][: job.gpus - len(gpus)])
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

    A job that is not started leaves the cluster as it was, so Algorithm 2 runs once for
    all the jobs that need it (one table of jobs x G_OJ, with whether SF-true partners and
    free GPUs could serve each), and again only after a start.
    """

    def policy(view: View) -> None:
        room = view.shareable()
        jobs = list(view.queue())
        rows: dict[str, int] = {}
        table = None
        for i, job in enumerate(jobs):
            if room == 0:
                return
            if job.gpus > room:
                continue
            pairs = None
            if view.free_count < job.gpus:
                if table is None:
                    later = [j for j in jobs[i:] if view.free_count < j.gpus <= room]
                    lone = view.lone_holders()
                    ids = [j.id for j in later]
                    table = sharing_table(view.perf, ids, lone.remaining_solo, lone.room, lone.models, rule)
                    served = view.free_count + table.share @ lone.count >= np.array([j.gpus for j in later])
                    rows = {j.id: r for r, j in enumerate(later)}
                r = rows[job.id]
                if not served[r]:
                    continue
                pairs = Pairs(table.share[r], table.batch[r], table.t[r])
            if place_job(view, job, free_gpus_first, pairs, rule):
                room = view.shareable()
                table = None

    return policy


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
