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


def standalone_ms(instance: PackingInstance, estimator: Interleaving) -> np.ndarray:
    """Standalone iteration time (ms), jobs x GPU types."""
    return np.array([
        [iteration_ms([j.member(k)], estimator, instance.interference)
         for k in range(len(instance.gpu_types))]
        for j in instance.jobs
    ])


def pair_scores(instance: PackingInstance, estimator: Interleaving, now: float) -> PairScores:
    """eff_value (best GPU type) and ddl_value of every pair of equal demand (eq. 3)."""
    jobs = instance.jobs
    types = range(len(instance.gpu_types))
    alone = standalone_ms(instance, estimator)
    iters = np.array([j.iterations for j in jobs], dtype=float)
    left = np.array([j.deadline - now for j in jobs])
    kinds = list(_kinds(jobs).values())
    blocks: list[tuple[np.ndarray, ...]] = []
    for a, ia in enumerate(kinds):
        for ib in kinds[a:]:
            if jobs[ia[0]].gpus != jobs[ib[0]].gpus:
                continue
            grid_u, grid_v = np.meshgrid(ia, ib, indexing="ij")
            u, v = grid_u.ravel(), grid_v.ravel()
            keep = u < v
            u, v = u[keep], v[keep]
            if not len(u):
                continue
            nu, nv = iters[u], iters[v]
            shared = np.minimum(nu, nv)
            eff = np.zeros(len(u))
            for k in types:
                together = iteration_ms(
                    [jobs[ia[0]].member(k), jobs[ib[0]].member(k)], estimator, instance.interference
                )
                ta, tb = alone[u, k], alone[v, k]
                group = shared * together + (nu - shared) * ta + (nv - shared) * tb
                eff = np.maximum(eff, (nu * ta + nv * tb) / group)
            lo, hi = np.minimum(left[u], left[v]), np.maximum(left[u], left[v])
            ddl = np.where((lo > 0) & (hi > 0), lo / np.where(hi > 0, hi, 1.0), 0.0)
            blocks.append((u, v, eff, ddl))
    if not blocks:
        empty = np.zeros(0)
        return PairScores(empty.astype(int), empty.astype(int), empty, empty)
    u, v, eff, ddl = (np.concatenate(parts) for parts in zip(*blocks, strict=True))
    order = np.lexsort((v, u))
    return PairScores(u[order], v[order], eff[order], ddl[order])


def group_times(
    instance: PackingInstance, groups: Sequence[Sequence[str]], estimator: Interleaving
) -> np.ndarray:
    """Group durations (s) under ``estimator``, groups x GPU types."""
    index = instance.job_index()
    return np.array([
        [timeline([instance.jobs[index[j]] for j in g], k, name, estimator,
                  instance.interference).duration
         for k, name in enumerate(instance.type_names)]
        for g in groups
    ])


def group_eff(
    instance: PackingInstance, group: Sequence[str], estimator: Interleaving
) -> float:
    """eff_value (eq. 1) of one group on its best GPU type under ``estimator``."""
    index = instance.job_index()
    jobs = [instance.jobs[index[j]] for j in group]
    best = 0.0
    for k, name in enumerate(instance.type_names):
        line = timeline(jobs, k, name, estimator, instance.interference)
        alone = [j.iterations * t * MS for j, t in zip(jobs, line.standalone_ms, strict=True)]
        best = max(best, eff_value(alone, line.duration))
    return best
