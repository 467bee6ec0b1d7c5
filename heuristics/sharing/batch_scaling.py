"""Algorithm 2 of SJF-BSBF: batch size scaling with the best sharing benefit (section V-B3).

For a running job R (holding its GPUs alone) and a new job N, try N's sub-batch b = B,
ceil(B/2), ..., 1; at each b whose two workers fit in GPU memory, Theorem 1
(:func:`~packgap.heuristics.sharing.pair.pair_decision`) gives the pair's best average completion
time t_share and whether to share (SF); keep the b with the least t_share.

The printed algorithm differs in four places, each a printing error of the paper (DESIGN.md):
its loop ``while b != 1`` never tries b = 1 although the text searches [1, B_Jk]; its
``return`` sits inside the loop, so only b = B would ever be tried; line 8 assigns t
instead of t_share; it checks no memory although the text requires the sub-batch to fit
beside the running job. Here b = 1 is tried, the loop runs to the end, t_share is kept and
memory is checked. Ties keep the smaller b, as the printed ``<=`` on line 7 does.
Each b costs one Theorem 1 evaluation: O(log2 B) per pair, computed here for many pairs
at once as arrays (:func:`sharing_table`) with the scalar form's float operations, so the
results are bit for bit those of the loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from packgap.heuristics.sharing.pair import decide_many
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
    table = sharing_table(
        perf, [new], np.array([remaining_solo]), np.array([room]), np.array([perf.model_index[running]])
    )
    return SharingConfig(bool(table.share[0, 0]), int(table.batch[0, 0]), float(table.t[0, 0]))


@dataclass(frozen=True)
class Rule:
    """Readings of Algorithm 2 the text leaves open, measured one at a time by the
    ``sjf-bsbf-crossover`` reproduction (issue 18.1); the defaults are the text's.

    ``accumulate`` False: the new job shares only at its solo sub-batch (no gradient
    accumulation beyond what it needs alone). ``sign_test``: SF by eq. 25's printed sign
    test instead of the direct comparison of Theorem 1 (:func:`~packgap.heuristics.sharing.pair.decide_many`).
    ``share_flag`` False: SF is ignored, the new job shares wherever a sub-batch fits beside the
    partner (an experiment of the ``sjf-bsbf-fig6b`` reproduction: Theorem 1's declines).
    """

    accumulate: bool = True
    sign_test: bool = False
    share_flag: bool = True


TEXT = Rule()


@dataclass(frozen=True)
class SharingTable:
    """Algorithm 2's outputs for many (new job, running job) pairs: rows new jobs, columns
    running jobs."""

    share: np.ndarray
    batch: np.ndarray
    t: np.ndarray


def sharing_table(
    perf: Perf,
    news: Sequence[str],
    remaining_solo: np.ndarray,
    room: np.ndarray,
    models: np.ndarray,
    rule: Rule = TEXT,
) -> SharingTable:
    """Algorithm 2 for every new job of ``news`` beside every running job at once.

    The running jobs are given by their remaining solo times P_R, the GPU memory left
    beside their workers (GB) and their model indices (:attr:`Perf.model_index`). Every
    (new job, b, running job) triple is one Theorem 1 evaluation, computed as arrays with
    the scalar form's float operations; per pair the kept b is the last (smallest) one of
    least t_share, as the sequential ``<=`` keeps it (padded ladder steps fit nowhere).
    """
    ladders, rows = perf.ladders, perf.ladder_rows(news)
    requested = ladders.batches[rows, 0]
    # Sub-batches that fit beside no running job change no pair's choice: left out.
    steps = ladders.memory[rows].min(axis=0, initial=np.inf) <= room.max(initial=-np.inf) + 1e-9
    solo, memory, batches = (x[rows][:, steps] for x in (ladders.solo_time, ladders.memory, ladders.batches))
    depth = solo.shape[1]
    if depth == 0 or not len(room):
        shape = (len(news), len(room))
        return SharingTable(
            np.zeros(shape, dtype=bool), np.repeat(requested[:, None], len(room), 1), np.full(shape, np.inf)
        )
    own = np.array([perf.model_index[n] for n in news], dtype=np.intp)
    share, t_share = decide_many(
        remaining_solo[None, None, :],
        solo[:, :, None],
        perf.xi_table[models[None, :], own[:, None]][:, None, :],
        perf.xi_table[own[:, None], models[None, :]][:, None, :],
        rule.sign_test,
    )
    usable = memory[:, :, None] <= room[None, None, :] + 1e-9
    if not rule.accumulate:
        usable &= (batches >= np.array([perf.solo_batch(perf.jobs[n]) for n in news])[:, None])[:, :, None]
    t = np.where(usable, t_share, np.inf)
    last = depth - 1 - np.argmin(t[:, ::-1, :], axis=1)
    i, k = np.indices(last.shape)
    best = t[i, last, k]
    fits = best < np.inf
    flags = share[i, last, k] if rule.share_flag else True
    return SharingTable(flags & fits, np.where(fits, batches[i, last], requested[:, None]), best)
