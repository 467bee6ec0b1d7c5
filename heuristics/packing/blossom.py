"""Muri's Blossom packing and CUCKOO's Alg. 3 skeleton (CUCKOO section 3.3.2, Muri section 4).

Alg. 3: one node per job, an edge per candidate pair weighted by a score, a maximum-weight
matching (Edmonds' blossom algorithm, here rustworkx on integer-scaled weights); matched
pairs become groups and unmatched jobs run alone. Only jobs of equal GPU demand are joined
(eq. 3; Muri's ``_Blossom_Same``).

Muri's Blossom weighs an edge by interleaving efficiency only: eff_value (eq. 1) under the
Muri-P estimate, on the GPU type where it is highest (section 3.3.2). Pairs with
eff_value below ``min_eff`` get no edge; Muri's ``calc_weight`` zeroes pairs that interleave
slower than running alone, which ``min_eff = 1`` reproduces; the default 0 keeps every pair,
as Alg. 3 does, and leaves unpacking to the anti-overpacking rule.

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
