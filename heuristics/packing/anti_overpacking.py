"""Anti-overpacking: unpack the least efficient groups while GPUs would idle (section 3.3.4).

Muri's rule as CUCKOO describes it counts GPUs: with fewer GPUs demanded by the groups than
the cluster holds, it splits the groups of lowest efficiency into single jobs until the
demand reaches the GPU count (100 jobs, 70 GPUs: 50 pairs, 20 of them split, 70 groups);
``blossom`` applies it. Muri's released code does otherwise
(:mod:`packgap.heuristics.packing.muri`): it merges matched jobs only while the demand
exceeds the GPU count, walking its list in job order (its sort by efficiency is discarded),
so it never splits by efficiency.

CUCKOO's heterogeneity-weighted rule counts GPUs by speed: the slowest type weighs 1 and
every other type its speed ratio to it, and the weighted sum is the demand to reach. The
paper computes the ratio from execution times without a formula; here it is the ratio of
the types' mean group times (Table of section 3.3.4: groups taking 2 s and 3 s on GPU A and
6 s and 8 s on GPU B give A the weight 14 / 5 = 2.8, "weight of GPU A to 3" in the text),
and the demand to reach is the weighted sum rounded to the nearest integer (3.8 -> 4 groups,
the paper's count).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from packgap.packing import PackingInstance
from packgap.packing.groups import Groups


def speed_weights(times: np.ndarray) -> np.ndarray:
    """Weight per GPU type from a (groups x types) matrix of times: slowest 1, others faster."""
    mean = np.asarray(times, dtype=float).mean(axis=0)
    return mean.max() / mean


def gpu_count_target(instance: PackingInstance) -> int:
    """Muri as CUCKOO describes it: the number of GPUs in the cluster."""
    return sum(t.count for t in instance.gpu_types)


def weighted_target(instance: PackingInstance, times: np.ndarray) -> int:
    """CUCKOO: GPU counts weighted by :func:`speed_weights`, rounded half up."""
    counts = np.array([t.count for t in instance.gpu_types], dtype=float)
    return int(np.floor(float(counts @ speed_weights(times)) + 0.5))


def unpack(
    instance: PackingInstance,
    groups: Groups,
    target: int,
    efficiency: Callable[[Sequence[str]], float],
) -> Groups:
    """Split pairs, least ``efficiency`` first, while the GPU demand is below ``target``."""
    demand = {j.id: j.gpus for j in instance.jobs}
    total = sum(demand[g[0]] for g in groups)
    pairs = sorted((efficiency(g), i) for i, g in enumerate(groups) if len(g) == 2)
    split: set[int] = set()
    for _, i in pairs:
        if total >= target:
            break
        split.add(i)
        total += demand[groups[i][0]]
    return tuple(part for i, g in enumerate(groups) for part in (((j,) for j in g) if i in split else (g,)))
