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

from packgap.heuristics.sharing.pair import printed_sign_test
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

    ``wait_batch``: the sub-batch at which the sequential alternative of Theorem 1 (N waits for R,
    then runs alone) is charged. ``"candidate"`` (the default) charges it at the candidate b of
    Algorithm 2's loop, t_seq = P_R + solo(b) / 2: the algorithm as printed evaluates Theorem 1
    once per b with the same P_N in both schedules (section V-B3, lines 4-7). ``"solo"`` charges
    it at the job's solo sub-batch, t_seq = P_R + solo(b_solo) / 2, since a job that waits runs
    alone at the largest sub-batch that fits an empty GPU (issue 30: this reading leans less
    toward sharing; measured by ``sjf-bsbf-crossover``).
    """

    accumulate: bool = True
    sign_test: bool = False
    share_flag: bool = True
    wait_batch: str = "candidate"


TEXT = Rule()
#: The readings of :attr:`Rule.wait_batch`.
WAIT_BATCHES = ("candidate", "solo")


@dataclass(frozen=True)
class SharingTable:
    """Algorithm 2's outputs for many (new job, running job) pairs (rows new jobs, columns
    running jobs; or one pair per entry from :func:`pair_table`), and which pairs are
    *settled*: SF false now and at every later instant while the running job keeps running."""

    share: np.ndarray
    batch: np.ndarray
    t: np.ndarray
    settled: np.ndarray


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
    beside their workers (GB) and their model indices (:attr:`Perf.model_index`).
    """
    rows, n = perf.ladder_rows(news), len(room)
    table = pair_table(
        perf,
        np.repeat(rows, n),
        np.tile(remaining_solo, len(rows)),
        np.tile(room, len(rows)),
        np.tile(models, len(rows)),
        rule,
    )
    return SharingTable(*(x.reshape(len(rows), n) for x in (table.share, table.batch, table.t, table.settled)))


def pair_table(
    perf: Perf,
    news: np.ndarray,
    remaining_solo: np.ndarray,
    room: np.ndarray,
    models: np.ndarray,
    rule: Rule = TEXT,
) -> SharingTable:
    """Algorithm 2 for the new job of instance row ``news[p]`` beside running job ``p``, under
    ``rule`` (:class:`Rule`).

    Every (pair, b) is one Theorem 1 evaluation, computed as arrays with the scalar form's
    float operations; per pair the kept b is the last (smallest) one of least t_share, as
    the sequential ``<=`` keeps it (padded ladder steps fit nowhere).

    A pair is settled when no b fits, or when SF is false with every fitting b's t_con
    above every fitting b's least t_seq by a relative 1e-9 (far beyond round-off) and
    (1 - 1 / (2 xi_N)) xi_R >= 1. As the running job runs, P_R only shrinks: while N would
    end first (xi_N P_N <= xi_R P_R), t_seq falls as fast as P_R and t_con half as fast, so
    the margin only grows; once R would end first, t_con = P_N / 2 + (1 - 1 / (2 xi_N)) xi_R P_R
    is, in floats too, at least t_seq = P_R + P_N / 2 (with ``wait_batch`` "solo" too: a b that
    fits beside a partner is at most the solo sub-batch, whose solo time is the least). Either way SF stays false, so a
    settled pair need not be evaluated again while R runs. Under the printed sign test SF
    depends on the two models alone, so a false SF stays false; without SF (``share_flag``
    False) only a pair where no b fits is settled (memory room does not change while R runs).
    """
    perf.fill_ladders(news)
    ladders = perf.ladders
    fit = ladders.memory[news] <= (room + 1e-9)[:, None]
    if not rule.accumulate or rule.wait_batch == "solo":
        solo_batches = np.array([perf.solo_batch(perf.instance.jobs[r]) for r in news.tolist()])
        at_solo = ladders.batches[news] == solo_batches[:, None]
    if not rule.accumulate:
        fit &= ladders.batches[news] >= solo_batches[:, None]
    # The waiting alternative's solo time: at the candidate b, or at the solo sub-batch (its last
    # column in the ladder: padded columns in front repeat B).
    waited = None
    if rule.wait_batch == "solo":
        column = at_solo.shape[1] - 1 - at_solo[:, ::-1].argmax(axis=1)
        waited = ladders.solo_time[news, column][:, None]
    # A pair's fitting sub-batches are a suffix of its ladder (memory grows with b; padded
    # steps fit nowhere): the steps before the first that fits beside any partner are left out.
    first = int(fit.any(axis=0).argmax())
    fit, solo = fit[:, first:], ladders.solo_time[news, first:]
    model_pair = perf.model_count * perf.model_rows[news] + models
    xi_new, xi_running, new_first, running_first = perf.pair_terms.take(model_pair, axis=1)
    # Theorem 1's t_seq and t_con (:func:`~packgap.heuristics.sharing.pair.averages_many`) with
    # the factors of each model pair read from a table: the same float operations per value.
    left = remaining_solo[:, None]
    half = solo / 2
    t_seq = left + (half if waited is None else np.broadcast_to(waited / 2, half.shape))
    t_con = np.where(
        xi_new[:, None] * solo <= (xi_running * remaining_solo)[:, None],
        left / 2 + new_first[:, None] * solo,
        half + (running_first * remaining_solo)[:, None],
    )
    share = (
        np.broadcast_to(printed_sign_test(xi_new[:, None], xi_running[:, None]), t_con.shape)
        if rule.sign_test
        else t_con < t_seq
    )
    t = np.where(fit, np.where(share, t_con, t_seq), np.inf)
    last = t.shape[1] - 1 - t[:, ::-1].argmin(axis=1)
    p = np.arange(len(news))
    best = t[p, last]
    fits = best < np.inf
    chosen = (share[p, last] if rule.share_flag else True) & fits
    settled = ~fits
    if rule.sign_test:
        settled |= ~chosen
    else:
        # SF false stays false where (1 - 1 / (2 xi_N)) xi_R >= 1 (as shared_average computes
        # it) and t_con exceeds t_seq by the margin over the fitting b: tested on those pairs only.
        undecided = (~chosen & fits & (running_first >= 1)).nonzero()[0]
        if undecided.size:
            apart = ~fit[undecided]
            t_con, t_seq = t_con[undecided], t_seq[undecided]
            t_con[apart] = t_seq[apart] = np.inf
            settled[undecided] = t_con.min(axis=1) > t_seq.min(axis=1) * (1 + 1e-9)
    batch = ladders.batches[news, np.where(fits, first + last, 0)]
    return SharingTable(chosen, batch, best, settled)
