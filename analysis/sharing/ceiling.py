"""A ceiling on every bound valid for preemptive schedules: the best of a few preemptive
schedules, each a valid schedule of the instance, so no such bound can exceed its value.

Each is shortest-remaining-processing-time on gangs, exclusive GPUs: at every arrival and
finish the jobs are ranked by a key of their remaining solo time (the solo sub-batch's
iteration time x the iterations left) and GPU count, and taken greedily while their gangs
fit (Tiresias's walk, :func:`packgap.heuristics.sharing.tiresias.greedy`); running jobs that
are not taken are preempted, taken ones keep their GPUs. Between events the ranking of
running jobs only improves, so events at arrivals and finishes suffice. Keys: remaining time
("srpt"), remaining time x GPUs ("area") and remaining time x sqrt(GPUs) ("sqrt").

The certified gap of the best policy can never fall below (best policy - ceiling) / best
policy, whatever the bound: :mod:`packgap.analysis.sharing.certified` reports that floor.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from packgap.heuristics.sharing.online import View, run_online
from packgap.heuristics.sharing.tiresias import greedy
from packgap.sharing import FAMILY, SharingInstance

Key = Callable[[np.ndarray, np.ndarray], np.ndarray]
KEYS: dict[str, Key] = {
    "srpt": lambda left, gpus: left,
    "area": lambda left, gpus: left * gpus,
    "sqrt": lambda left, gpus: left * np.sqrt(gpus),
}


class RemainingTime:
    """The preemptive rule of one key over one instance; jobs indexed in instance order."""

    def __init__(self, instance: SharingInstance, key: Key) -> None:
        self.jobs, self.key = instance.jobs, key
        self.index = {j.id: i for i, j in enumerate(self.jobs)}
        self.gpus = np.array([j.gpus for j in self.jobs], dtype=np.int64)
        self.active = np.zeros(len(self.jobs), dtype=bool)
        self.capacity = instance.cluster.gpus

    def __call__(self, view: View) -> None:
        for jid in view.arrived:
            self.active[self.index[jid]] = True
        for jid in view.finished:
            self.active[self.index[jid]] = False
        t_iter = np.array([view.perf.t_iter(j.id, view.perf.solo_batch(j)) for j in self.jobs])
        left = np.maximum(0.0, view.columns.work - view.columns.done) * t_iter
        waiting = np.flatnonzero(self.active)
        order = waiting[np.lexsort((waiting, self.key(left[waiting], self.gpus[waiting])))]
        chosen = order[greedy(self.gpus[order], self.capacity)]
        keep = set(chosen.tolist())
        for jid in [jid for jid in view.running if self.index[jid] not in keep]:
            view.stop(jid)
        for i in chosen.tolist():
            job = self.jobs[i]
            if job.id not in view.running:
                view.start(job, view.free_consolidated(job.gpus), view.perf.solo_batch(job))


def preemptive_ceiling(instance: SharingInstance) -> float:
    """The least average JCT over the keys' preemptive schedules (each validated)."""
    values = []
    for key in KEYS.values():
        solution = run_online(instance, RemainingTime(instance, key), preemptive=True)
        FAMILY.validate(instance, solution)
        values.append(FAMILY.evaluate(instance, solution).objective)
    return min(values)
