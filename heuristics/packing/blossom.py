"""Muri's Blossom packing as CUCKOO reads it, and CUCKOO's Alg. 3 skeleton (CUCKOO section
3.3.2, Muri section 4).

Alg. 3: one node per job, an edge per candidate pair weighted by a score, a maximum-weight
matching (Edmonds' blossom algorithm, here rustworkx on integer-scaled weights); matched
pairs become groups and unmatched jobs run alone. Only jobs of equal GPU demand are joined
(eq. 3; Muri's ``_Blossom_Same``).

CUCKOO's Muri ("Muri-P" in its evaluation) weighs an edge by interleaving efficiency only:
eff_value (eq. 1) of the whole jobs under the Muri-P estimate (Muri's non-default
``multi_resource=3``), on the GPU type where it is highest (section 3.3.2), and forms
pairs. Pairs with eff_value below ``min_eff`` get no edge (``min_eff = 1``: no pair that
interleaves slower than its jobs run one after the other); the default 0 keeps every pair,
as Alg. 3 does, and leaves unpacking to the anti-overpacking rule.

Muri as released differs in each of these (:mod:`packgap.heuristics.packing.muri`): the
4-slot ``multi_resource=4`` recurrence with packed-time factors, per-iteration used-ratio
weights, groups of up to four by repeated rounds, merging in list order only while the
demand exceeds the cluster, and ``autopack``, which splits a group slower than its members'
summed standalone iteration times. (Muri's ``calc_weight``, a different "slower than
alone" rule, is never called: its call is commented out in ``matching.py``.)

A complete graph on thousands of jobs is slow to match (DESIGN.md: 70 s at 2,000 jobs in
rustworkx). ``neighbours = k > 0`` keeps only the edges among the k heaviest of either
endpoint (a sparse candidate graph); its loss against the dense matching is measured in
``benchmarks/test_packing_bench.py``, not assumed. The default 0 keeps every edge.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from packgap.heuristics.packing.scores import PairScores, pair_scores
from packgap.packing import PackingInstance
from packgap.packing.groups import Groups, default_now
from packgap.packing.instance import Interleaving
from packgap.solvers.matching import MatchingBackend, max_weight_matching


def top_edges(u: np.ndarray, v: np.ndarray, w: np.ndarray, k: int) -> np.ndarray:
    """Mask of the edges among the ``k`` heaviest at u or at v (ties: lower edge index)."""
    m = len(w)
    ends = np.concatenate([u, v])
    edge = np.concatenate([np.arange(m), np.arange(m)])
    order = np.lexsort((edge, -np.concatenate([w, w]), ends))
    sorted_ends = ends[order]
    first = np.searchsorted(sorted_ends, sorted_ends, side="left")
    rank = np.arange(2 * m) - first
    keep = np.zeros(m, dtype=bool)
    keep[edge[order][rank < k]] = True
    return keep


def pack_by_matching(
    instance: PackingInstance,
    scores: PairScores,
    weight: Callable[[PairScores], np.ndarray],
    *,
    min_eff: float = 0.0,
    neighbours: int = 0,
    backend: MatchingBackend = "rustworkx",
) -> Groups:
    """Alg. 3 with edge weights ``weight(scores)``; groups in order of their first job."""
    w = weight(scores)
    keep = scores.eff >= min_eff
    if neighbours > 0:
        keep &= top_edges(scores.u, scores.v, np.where(keep, w, -np.inf), neighbours)
    # tolist() gives the same Python ints and floats as int()/float() per item, in one call.
    edges = list(zip(scores.u[keep].tolist(), scores.v[keep].tolist(), w[keep].tolist(), strict=True))
    matching = max_weight_matching(len(instance.jobs), edges, backend=backend)
    partner = {a: b for a, b in matching.pairs}
    matched = {b for _, b in matching.pairs}
    ids = [j.id for j in instance.jobs]
    return tuple((ids[i], ids[partner[i]]) if i in partner else (ids[i],) for i in range(len(ids)) if i not in matched)


def muri_blossom(
    instance: PackingInstance,
    *,
    estimator: Interleaving = "muri-p",
    min_eff: float = 0.0,
    neighbours: int = 0,
    backend: MatchingBackend = "rustworkx",
) -> Groups:
    """Muri's efficiency-only Blossom packing."""
    scores = pair_scores(instance, estimator, default_now(instance))
    return pack_by_matching(instance, scores, lambda s: s.eff, min_eff=min_eff, neighbours=neighbours, backend=backend)
