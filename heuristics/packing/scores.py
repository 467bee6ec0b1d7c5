"""Pair scores for job packing: eff_value (eq. 1) and ddl_value (eq. 11) of every candidate pair.

Heterogeneity-aware packing (CUCKOO section 3.3.2): with several GPU types available, a
group's efficiency is taken on the type where it is highest. Durations are whole-job
durations on the exact group timeline (:mod:`packgap.packing.timeline`), under the
estimator the packer trusts (``"am"`` for CUCKOO, ``"muri-p"`` for Muri), which need not be
the instance's ground truth.

Jobs with the same stage profiles, sync rule and demand form one *kind*; iteration times
are computed once per pair of kinds and the per-job numbers in numpy blocks, so 2,000 jobs
(2 million pairs) are scored in seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from packgap.packing import PackingInstance
from packgap.packing.instance import Interleaving, Job
from packgap.packing.timeline import MS, iteration_ms, timeline
from packgap.packing.values import eff_value


@dataclass(frozen=True)
class PairScores:
    """Candidate pairs (u < v, job indices) with eff_value and ddl_value of each."""

    u: np.ndarray
    v: np.ndarray
    eff: np.ndarray
    ddl: np.ndarray


def _kinds(jobs: Sequence[Job]) -> dict[tuple[object, ...], list[int]]:
    kinds: dict[tuple[object, ...], list[int]] = {}
    for i, job in enumerate(jobs):
        kinds.setdefault((job.profiles, job.sync, job.gpus), []).append(i)
    return kinds


def _kind_times(
    instance: PackingInstance, kinds: Sequence[Job], estimator: Interleaving
) -> tuple[np.ndarray, np.ndarray]:
    """Standalone iteration times (kinds x types) and interleaved ones of each pair of kinds
    of equal demand (kinds x kinds x types, symmetric: both estimators keep their best job
    order; other entries 0, never read). Jobs of one kind share every number, so an online
    run re-scoring hundreds of waiting jobs at every round computes a few hundred times."""
    types = range(len(instance.gpu_types))
    alone = np.array(
        [[iteration_ms([j.member(k)], estimator, instance.interference) for k in types] for j in kinds]
    ).reshape(len(kinds), len(types))
    together = np.zeros((len(kinds), len(kinds), len(types)))
    for a, ja in enumerate(kinds):
        for b in range(a, len(kinds)):
            if ja.gpus != kinds[b].gpus:
                continue
            for k in types:
                together[a, b, k] = together[b, a, k] = iteration_ms(
                    [ja.member(k), kinds[b].member(k)], estimator, instance.interference
                )
    return alone, together


def pair_scores(instance: PackingInstance, estimator: Interleaving, now: float) -> PairScores:
    """eff_value (best GPU type) and ddl_value of every pair of equal demand (eq. 3), in
    (u, v) order; elementwise the same arithmetic for every pair, whole arrays at once."""
    jobs = instance.jobs
    groups = list(_kinds(jobs).values())
    kind = np.zeros(len(jobs), dtype=int)
    for a, members in enumerate(groups):
        kind[members] = a
    alone, together = _kind_times(instance, [jobs[m[0]] for m in groups], estimator)
    gpus = np.array([j.gpus for j in jobs], dtype=int)
    u, v = np.triu_indices(len(jobs), 1)
    keep = gpus[u] == gpus[v]
    u, v = u[keep], v[keep]
    iters = np.array([j.iterations for j in jobs], dtype=float)
    left = np.array([j.deadline - now for j in jobs])
    nu, nv = iters[u], iters[v]
    shared = np.minimum(nu, nv)
    eff = np.zeros(len(u))
    for k in range(len(instance.gpu_types)):
        ta, tb = alone[kind[u], k], alone[kind[v], k]
        group = shared * together[kind[u], kind[v], k] + (nu - shared) * ta + (nv - shared) * tb
        eff = np.maximum(eff, (nu * ta + nv * tb) / group)
    lo, hi = np.minimum(left[u], left[v]), np.maximum(left[u], left[v])
    ddl = np.where((lo > 0) & (hi > 0), lo / np.where(hi > 0, hi, 1.0), 0.0)
    return PairScores(u, v, eff, ddl)


def group_times(instance: PackingInstance, groups: Sequence[Sequence[str]], estimator: Interleaving) -> np.ndarray:
    """Group durations (s) under ``estimator``, groups x GPU types."""
    index = instance.job_index()
    return np.array(
        [
            [
                timeline([instance.jobs[index[j]] for j in g], k, name, estimator, instance.interference).duration
                for k, name in enumerate(instance.type_names)
            ]
            for g in groups
        ]
    )


def group_eff(instance: PackingInstance, group: Sequence[str], estimator: Interleaving) -> float:
    """eff_value (eq. 1) of one group on its best GPU type under ``estimator``."""
    index = instance.job_index()
    jobs = [instance.jobs[index[j]] for j in group]
    best = 0.0
    for k, name in enumerate(instance.type_names):
        line = timeline(jobs, k, name, estimator, instance.interference)
        alone = [j.iterations * t * MS for j, t in zip(jobs, line.standalone_ms, strict=True)]
        best = max(best, eff_value(alone, line.duration))
    return best
