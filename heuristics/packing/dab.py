"""DAB: CUCKOO's deadline-aware Blossom packing (section 3.3.2, eq. 11-12, Alg. 3).

Edges weigh ``total_value = w * eff_value + (1 - w) * ddl_value`` (eq. 12), with eff_value
under CUCKOO's AM estimate on the best GPU type and ddl_value measured from ``now`` (the
batch's first arrival by default). ``w = 1`` is Muri's Blossom under the same estimator
("if there is no deadline requirement, DAB acts the same as Blossom", section 4.4).
"""

from __future__ import annotations

from packgap.heuristics.packing.blossom import pack_by_matching
from packgap.heuristics.packing.scores import pair_scores
from packgap.packing import PackingInstance
from packgap.packing.groups import Groups, default_now
from packgap.packing.instance import Interleaving
from packgap.packing.values import DEFAULT_W, total_value
from packgap.solvers.matching import MatchingBackend


def dab(
    instance: PackingInstance,
    *,
    w: float = DEFAULT_W,
    estimator: Interleaving = "am",
    now: float | None = None,
    min_eff: float = 0.0,
    neighbours: int = 0,
    backend: MatchingBackend = "rustworkx",
) -> Groups:
    """Deadline-aware Blossom packing; ``w`` in [0, 1] (paper: 0.6)."""
    moment = default_now(instance) if now is None else now
    scores = pair_scores(instance, estimator, moment)
    return pack_by_matching(
        instance,
        scores,
        lambda s: total_value(s.eff, s.ddl, w),
        min_eff=min_eff,
        neighbours=neighbours,
        backend=backend,
    )
