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

from dataclasses import dataclass

import numpy as np

from heuristics.sharing.pair import decide_many
from packgap.sharing import Perf


@dataclass(frozen=True)
class SharingConfig:
    """Algorithm 2's output: share flag SF, sub-batch b and the pair's average JCT t."""

    share: bool
    batch: int
    t: float


def best_sharing(perf: Perf, running: str, running_batch: int, remaining_solo: float, new: str) -> SharingConfig:
    """SF, b, t for new job ``new`` beside ``running`` (which has ``remaining_solo`` s left)."""
    room = perf.instance.cluster.gpu_memory_gb - perf.memory(running, running_batch)
    share, batch, t = best_sharing_many(
        perf, new, np.array([remaining_solo]), np.array([room]), np.array([perf.model_index[running]])
    )
    return SharingConfig(bool(share[0]), int(batch[0]), float(t[0]))


def best_sharing_many(
    perf: Perf, new: str, remaining_solo: np.ndarray, room: np.ndarray, models: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Algorithm 2 for ``new`` beside many running jobs at once: arrays SF, b and t.

    The running jobs are given by their remaining solo times P_R, the GPU memory left
    beside their workers (GB) and their model indices (:attr:`Perf.model_index`). Every
    (running job, b) pair is one Theorem 1 evaluation, computed as arrays; per running job
    the kept b is the last (smallest) one of least t_share, as the sequential ``<=`` keeps it.
    """
    job = perf.jobs[new]
    steps = perf.ladder(new)
    own = perf.model_index[new]
    share, t_share = decide_many(
        remaining_solo[None, :],
        steps.solo_time[:, None],
        perf.xi_table[models, own][None, :],
        perf.xi_table[own, models][None, :],
    )
    t = np.where(steps.memory[:, None] <= room[None, :] + 1e-9, t_share, np.inf)
    last = len(steps.batches) - 1 - np.argmin(t[::-1], axis=0)
    cols = np.arange(len(room))
    best = t[last, cols]
    fits = best < np.inf
    return share[last, cols] & fits, np.where(fits, steps.batches[last], job.batch), best
