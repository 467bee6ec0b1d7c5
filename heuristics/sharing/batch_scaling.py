"""Algorithm 2 of SJF-BSBF: batch size scaling with the best sharing benefit (section V-B3).

For a running job R (holding its GPUs alone) and a new job N, try N's sub-batch b = B,
ceil(B/2), ..., 1; at each b whose two workers fit in GPU memory, Theorem 1
(:func:`~heuristics.sharing.pair.pair_decision`) gives the pair's best average completion
time t_share and whether to share (SF); keep the b with the least t_share.

The printed algorithm differs in four places, each a printing error of the paper (DESIGN.md):
its loop ``while b != 1`` never tries b = 1 although the text searches [1, B_Jk]; its
``return`` sits inside the loop, so only b = B would ever be tried; line 8 assigns t
instead of t_share; it checks no memory although the text requires the sub-batch to fit
beside the running job. Here b = 1 is tried, the loop runs to the end, t_share is kept and
memory is checked. Ties keep the smaller b, as the printed ``<=`` on line 7 does.
Each b costs one Theorem 1 evaluation: O(log2 B) per pair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from heuristics.sharing.pair import decide
from packgap.sharing import Perf
from packgap.sharing.perf import ladder


@dataclass(frozen=True)
class SharingConfig:
    """Algorithm 2's output: share flag SF, sub-batch b and the pair's average JCT t."""

    share: bool
    batch: int
    t: float


def best_sharing(perf: Perf, running: str, running_batch: int, remaining_solo: float, new: str) -> SharingConfig:
    """SF, b, t for new job ``new`` beside ``running`` (which has ``remaining_solo`` s left)."""
    job = perf.jobs[new]
    room = perf.instance.cluster.gpu_memory_gb - perf.memory(running, running_batch)
    xi_running, xi_new = perf.xi(running, new), perf.xi(new, running)
    best = SharingConfig(False, job.batch, math.inf)
    for b in ladder(job.batch):
        if perf.memory(new, b) > room + 1e-9:
            continue
        d = decide(remaining_solo, perf.solo_time(new, b), xi_running, xi_new)
        if d.t_share <= best.t:
            best = SharingConfig(d.share, b, d.t_share)
    return best
