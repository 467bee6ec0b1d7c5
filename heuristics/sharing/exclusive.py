"""FIFO and SJF, the exclusive-GPU baselines of SJF-BSBF's section VI-A (1, 2).

Both give each job G_j GPUs of its own, consolidated on the fewest nodes
(:func:`~packgap.heuristics.sharing.online.consolidated`), at the largest sub-batch that fits an
empty GPU, and never preempt. FIFO serves the queue in arrival order and, by default,
lets the head of the queue block everyone behind it (the head-of-line blocking the paper
holds against it); SJF orders by L_k = t_iter x I_k (the job's solo run time, known in
advance as the paper assumes) and, like Algorithm 1's loop, tries every waiting job in
that order, so a job that fits starts even when a shorter one does not. ``backfill``
switches either behaviour.
"""

from __future__ import annotations

from packgap.heuristics.sharing.online import OnlinePolicy, View, run_online
from packgap.sharing import SharingInstance, SharingSolution
from packgap.sharing.instance import Job


def exclusive_policy(backfill: bool) -> OnlinePolicy:
    """Start waiting jobs in the queue's order on free GPUs only."""

    def policy(view: View) -> None:
        for job in view.queue():
            if view.free_count >= job.gpus:
                view.start(job, view.free_consolidated(job.gpus), view.perf.solo_batch(job))
            elif not backfill or view.free_count == 0:
                return

    return policy


def fifo(instance: SharingInstance, backfill: bool = False) -> SharingSolution:
    """First-in-first-out: arrival order, exclusive GPUs, head-of-line blocking by default."""
    return run_online(instance, exclusive_policy(backfill), priority=lambda v, j: j.arrival)


def solo_length(view: View, job: Job) -> float:
    """L_k = t_iter x I_k at the job's solo sub-batch (Algorithm 1's sort key)."""
    return view.perf.solo_time(job.id, view.perf.solo_batch(job))


def sjf(instance: SharingInstance, backfill: bool = True) -> SharingSolution:
    """Shortest job first by L_k, exclusive GPUs."""
    return run_online(instance, exclusive_policy(backfill), priority=solo_length)
