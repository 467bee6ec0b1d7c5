"""Tiresias, discretised two-dimensional least-attained-service (2D-LAS), preemptive.

Gu et al., "Tiresias: A GPU Cluster Manager for Distributed Deep Learning" (NSDI 19),
section 4.2: a job's attained service is GPUs x executed time; jobs sit in K priority
queues split at service thresholds; a lower queue index always wins, jobs inside a queue
go first-come-first-served, and a waiting job of a better queue preempts running jobs of
worse ones. Jobs never share GPUs. Defaults follow the authors' simulator
(SymbioticLab/Tiresias, ``simulator/jobs.py``, schedule ``dlas-gpu``): two queues split at
3,250 GPU-seconds. The starvation promotion knob of the paper is off, as in that
simulator's default run.

Scheduling happens at arrivals, finishes and whenever a running job crosses a threshold
(a wake-up). At each, the jobs to run are chosen greedily in priority order while their
GPU counts fit (a job that does not fit is skipped, so smaller jobs behind it may run);
chosen jobs that already run keep their GPUs, the others get free GPUs consolidated on the
fewest nodes (migration on resume is allowed). Each resume pays the cluster's
``preemption_overhead_s`` (the instance's parameter, charged by the progress model).

Each event works on arrays over the arrived, unfinished jobs (service, queue, priority order)
and over masks of the jobs it keeps running, so its Python work is in the jobs that start or
stop, not in every waiting or running one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from packgap.heuristics.sharing.online import View, run_online
from packgap.sharing import SharingInstance, SharingSolution

#: Queue thresholds of attained GPU-seconds (Tiresias simulator ``queue_limit[0]``).
DEFAULT_THRESHOLDS: tuple[float, ...] = (3250.0,)


def greedy(sizes: np.ndarray, budget: int) -> np.ndarray:
    """Positions taken by walking ``sizes`` in order, taking each one that fits the budget
    left: every job while all fit (one cumulative sum), then one search per later job."""
    before = np.cumsum(sizes) - sizes
    misfit = np.flatnonzero(sizes > budget - before)
    if not misfit.size:
        return np.arange(len(sizes))
    pos = int(misfit[0])
    head, tail = pos, []
    budget -= int(before[pos])
    while budget > 0:
        fits = np.flatnonzero(sizes[pos:] <= budget)
        if not fits.size:
            break
        pos += int(fits[0])
        tail.append(pos)
        budget -= int(sizes[pos])
        pos += 1
    return np.concatenate([np.arange(head), np.array(tail, dtype=np.intp)])


class Tiresias:
    """The 2D-LAS policy over one instance; jobs are indexed in instance order."""

    def __init__(self, instance: SharingInstance, thresholds: Sequence[float]) -> None:
        self.jobs = instance.jobs
        self.limits = np.array(sorted(thresholds), dtype=float)
        self.index = {j.id: i for i, j in enumerate(self.jobs)}
        self.gpus = np.array([j.gpus for j in self.jobs], dtype=np.int64)
        #: Job indices in first-come-first-served order (arrival, then id).
        self.fcfs = np.array(sorted(range(len(self.jobs)), key=lambda i: (self.jobs[i].arrival, self.jobs[i].id)))
        #: Each job's place in :attr:`fcfs`, and which places hold arrived, unfinished jobs.
        self.place = {self.jobs[i].id: k for k, i in enumerate(self.fcfs.tolist())}
        self.active = np.zeros(len(self.jobs), dtype=bool)
        #: The jobs this policy left running (the view's running jobs, as a mask).
        self.running = np.zeros(len(self.jobs), dtype=bool)
        self.capacity = instance.cluster.gpus

    def __call__(self, view: View) -> float | None:
        for jid in view.arrived:
            self.active[self.place[jid]] = True
        for jid in view.finished:
            self.active[self.place[jid]] = self.running[self.index[jid]] = False
        ranked = self.fcfs[self.active]
        service = self.gpus[ranked] * view.columns.running_s[ranked]
        queue = np.searchsorted(self.limits, service, side="right")
        # Queue by queue, first-come-first-served inside each (a stable sort keeps fcfs order).
        order = np.argsort(queue, kind="stable")
        taken = order[greedy(self.gpus[ranked[order]], self.capacity)]
        chosen = ranked[taken]
        keep = np.zeros(len(self.jobs), dtype=bool)
        keep[chosen] = True
        # Preempted in row order: the order of stops changes nothing the view or the engine keeps.
        for i in np.flatnonzero(self.running & ~keep).tolist():
            view.stop(self.jobs[i].id)
        for i in chosen[~self.running[chosen]].tolist():
            job = self.jobs[i]
            view.start(job, view.free_consolidated(job.gpus), view.perf.solo_batch(job))
        self.running = keep
        climbing = taken[queue[taken] < len(self.limits)]
        if not climbing.size:
            return None
        rows = ranked[climbing]
        at = view.now + (self.limits[queue[climbing]] - service[climbing]) / self.gpus[rows]
        return float(at.min())


def tiresias(instance: SharingInstance, thresholds: Sequence[float] = DEFAULT_THRESHOLDS) -> SharingSolution:
    """Discretised 2D-LAS over the whole workload (online, preemptive, exclusive GPUs)."""
    return run_online(instance, Tiresias(instance, thresholds), preemptive=True)
