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
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from heuristics.sharing.online import View, run_online
from packgap.sharing import SharingInstance, SharingSolution

#: Queue thresholds of attained GPU-seconds (Tiresias simulator ``queue_limit[0]``).
DEFAULT_THRESHOLDS: tuple[float, ...] = (3250.0,)


def tiresias(instance: SharingInstance, thresholds: Sequence[float] = DEFAULT_THRESHOLDS) -> SharingSolution:
    """Discretised 2D-LAS over the whole workload (online, preemptive, exclusive GPUs)."""
    limits = sorted(thresholds)

    def service(view: View, jid: str) -> float:
        return view.perf.jobs[jid].gpus * view.progress[jid].running_s

    def policy(view: View) -> float | None:
        jobs = [p.job for p in view.running.values()] + list(view.waiting.values())
        order = sorted(jobs, key=lambda j: (bisect.bisect_right(limits, service(view, j.id)), j.arrival, j.id))
        budget, chosen = instance.cluster.gpus, []
        for job in order:
            if job.gpus <= budget:
                chosen.append(job)
                budget -= job.gpus
        keep = {j.id for j in chosen}
        for jid in [jid for jid in view.running if jid not in keep]:
            view.stop(jid)
        for job in chosen:
            if job.id not in view.running:
                view.start(job, view.free_consolidated(job.gpus), view.perf.solo_batch(job))
        wake = None
        for jid, placed in view.running.items():
            attained = service(view, jid)
            nxt = bisect.bisect_right(limits, attained)
            if nxt < len(limits):
                at = view.now + (limits[nxt] - attained) / placed.job.gpus
                wake = at if wake is None else min(wake, at)
        return wake

    return run_online(instance, policy, preemptive=True)
