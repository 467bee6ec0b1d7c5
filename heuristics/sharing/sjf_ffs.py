"""SJF-FFS: shortest job first with first-fit sharing, SJF-BSBF's ablation (section VI-A, 4).

Same order as SJF-BSBF (ascending L_k) and the same free-GPU placement; when free GPUs do
not suffice, the job is put on GPUs that hold one job "in a first fit manner", with no
Theorem 1 test and no batch search. Readings: first fit scans GPUs holding one job in GPU
id order and takes each one whose remaining memory admits the job's worker at b = 1; free
GPUs complete the gang when those do not suffice (as in SJF-BSBF); the sub-batch is then
the largest of B, ceil(B/2), ..., 1 that fits on every chosen GPU (gradient accumulation
is what makes sharing possible at all in this model).
"""

from __future__ import annotations

from packgap.heuristics.sharing.exclusive import solo_length
from packgap.heuristics.sharing.online import View, run_online
from packgap.sharing import SharingInstance, SharingSolution
from packgap.sharing.instance import Job


def first_fit(view: View, job: Job) -> bool:
    """Place one job; True when it was started."""
    if view.free_count >= job.gpus:
        view.start(job, view.free_consolidated(job.gpus), view.perf.solo_batch(job))
        return True
    lone, left = view.lone_room()
    # A GPU admits the job where the least worker memory of its ladder fits.
    taken = (view.perf.least_memory(job) <= left + 1e-9).nonzero()[0][: job.gpus]
    chosen: list[int] = lone[taken].tolist()
    if len(chosen) + view.free_count < job.gpus or not chosen:
        return False
    room = float(left[taken].min())
    chosen += view.free_consolidated(job.gpus - len(chosen))
    batch = view.perf.largest_fitting(job, room)
    assert batch is not None
    view.start(job, chosen, batch)
    return True


def sjf_ffs(instance: SharingInstance) -> SharingSolution:
    """SJF-FFS over the whole workload (online, non-preemptive)."""

    def policy(view: View) -> None:
        room = view.shareable()
        for job in view.queue():
            if room == 0:
                return
            if job.gpus <= room and first_fit(view, job):
                room = view.shareable()

    return run_online(instance, policy, priority=solo_length)
