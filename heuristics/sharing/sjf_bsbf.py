"""Algorithm 1 of SJF-BSBF: shortest job first with best sharing benefit first (section V-B).

Waiting jobs are taken in ascending L_k = t_iter x I_k (lines 1-2). A job that fits on
free GPUs gets them, consolidated on the fewest nodes (lines 6-7). Otherwise, when free
GPUs plus GPUs holding one job (G_OJ) could serve it (line 9), every job J holding GPUs
alone is paired with it by Algorithm 2 (lines 10-13); the pairs with SF true are sorted by
their t (line 14) and their lone GPUs are taken until G_k is met (lines 15-17). The paper
says free GPUs are not taken first "because the completion time of J_k is determined by
those shared GPUs"; read as: shared GPUs first, free GPUs only to complete the gang
(``free_gpus_first=True`` takes all free GPUs first, as the co-authors' testbed code
Lai-JX/Scheduler does). A job whose pairs all say SF false, or that still lacks GPUs,
goes back to the queue.

Readings where the paper is silent: a job takes only as many of a partner's lone GPUs as
it still needs (partial sharing, Fig. 1c); its sub-batch is the smallest b that Algorithm 2
chose over the partners it takes, so its workers fit beside every partner; each pair is
judged with R's remaining solo time at R's sub-batch. Complexity per job:
O(|G_OJ| log2 B + |J_share| log |J_share|), as section V-B4 states.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from heuristics.sharing.batch_scaling import SharingConfig, best_sharing
from heuristics.sharing.exclusive import solo_length
from heuristics.sharing.online import OnlinePolicy, View, consolidated, run_online
from packgap.sharing import SharingInstance, SharingSolution
from packgap.sharing.instance import Job


def place_job(view: View, job: Job, free_gpus_first: bool = False) -> bool:
    """Algorithm 1, lines 3-19, for one job; True when the job was started."""
    free = view.free_gpus()
    per_node = view.instance.cluster.gpus_per_node
    if len(free) >= job.gpus:
        view.start(job, consolidated(free, job.gpus, per_node), view.perf.solo_batch(job))
        return True
    alone = view.alone_gpus()
    if len(free) + sum(len(g) for g in alone.values()) < job.gpus:
        return False
    pairs: list[tuple[SharingConfig, str]] = []
    for holder in alone:
        batch = view.running[holder].batch
        config = best_sharing(view.perf, holder, batch, view.remaining_solo(holder), job.id)
        if config.share:
            pairs.append((config, holder))
    pairs.sort(key=lambda p: p[0].t)
    gpus: list[int] = consolidated(free, len(free), per_node) if free_gpus_first else []
    batch = job.batch
    for config, holder in pairs:
        if len(gpus) >= job.gpus:
            break
        gpus.extend(alone[holder][: job.gpus - len(gpus)])
        batch = min(batch, config.batch)
    if len(gpus) < job.gpus and not free_gpus_first:
        gpus.extend(consolidated(free, min(len(free), job.gpus - len(gpus)), per_node))
    if len(gpus) < job.gpus:
        return False
    view.start(job, gpus[: job.gpus], batch)
    return True


def sjf_bsbf_policy(free_gpus_first: bool = False) -> OnlinePolicy:
    return in_order(lambda view, job: solo_length(view, job), free_gpus_first)


def in_order(key: Callable[[View, Job], float], free_gpus_first: bool) -> OnlinePolicy:
    """Lines 2-20 of Algorithm 1 over the waiting jobs in ``key`` order."""

    def policy(view: View) -> None:
        room = view.shareable()
        for job in sorted(view.waiting, key=lambda j: (key(view, j), j.arrival, j.id)):
            if job.gpus <= room and place_job(view, job, free_gpus_first):
                room = view.shareable()

    return policy


def sjf_bsbf(instance: SharingInstance, free_gpus_first: bool = False) -> SharingSolution:
    """SJF-BSBF over the whole workload (online, non-preemptive)."""
    return run_online(instance, sjf_bsbf_policy(free_gpus_first))


def bsbf_in_order(
    instance: SharingInstance, priority: Mapping[str, float], free_gpus_first: bool = False
) -> SharingSolution:
    """Algorithm 1's placement with ``priority`` (lower first) in place of L_k: the replay of
    an exact relaxation's completion order as a real schedule."""

    return run_online(instance, in_order(lambda view, job: priority[job.id], free_gpus_first))
