from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from packgap.gpus import GpuType
from packgap.heuristics.packing.anti_overpacking import (
    gpu_count_target,
    speed_weights,
    unpack,
    weighted_target,
)
from packgap.heuristics.packing.blossom import muri_blossom, pack_by_matching
from packgap.heuristics.packing.dab import dab
from packgap.heuristics.packing.scores import group_eff, pair_scores
from packgap.heuristics.packing.singles import no_packing
from packgap.packing import Job, PackingInstance
from packgap.packing.instance import from_dict
from packgap.packing.values import ddl_value
from tests.packing.strategies import RESNET, instances, tiny_document


def _partition(inst: PackingInstance, groups: tuple[tuple[str, ...], ...]) -> None:
    ids = [j for g in groups for j in g]
    assert sorted(ids) == sorted(j.id for j in inst.jobs)
    demand = {j.id: j.gpus for j in inst.jobs}
    for g in groups:
        assert 1 <= len(g) <= 2 and len({demand[j] for j in g}) == 1


@settings(max_examples=30, deadline=None)
@given(instances(max_jobs=7))
def test_packers_partition_jobs_by_equal_demand(inst: PackingInstance) -> None:
    for groups in (dab(inst), muri_blossom(inst), no_packing(inst), dab(inst, w=0.0)):
        _partition(inst, groups)


@settings(max_examples=20, deadline=None)
@given(instances(max_jobs=7))
def test_rustworkx_matches_networkx_weight(inst: PackingInstance) -> None:
    scores = pair_scores(inst, "am", 0.0)
    weight = {}
    for backend in ("rustworkx", "networkx"):
        groups = pack_by_matching(inst, scores, lambda s: s.eff, backend=backend)  # type: ignore[arg-type]
        weight[backend] = sum(group_eff(inst, g, "am") for g in groups if len(g) == 2)
    assert weight["rustworkx"] == pytest.approx(weight["networkx"], rel=1e-6)


def test_scores_match_the_hub_formulas() -> None:
    inst = from_dict(tiny_document())
    scores = pair_scores(inst, "am", now=0.0)
    ids = [j.id for j in inst.jobs]
    for u, v, eff, ddl in zip(scores.u, scores.v, scores.eff, scores.ddl, strict=True):
        pair = (ids[u], ids[v])
        assert eff == pytest.approx(group_eff(inst, pair, "am"))
        assert ddl == pytest.approx(ddl_value([inst.jobs[u].deadline, inst.jobs[v].deadline], 0.0))


def test_dab_trades_efficiency_for_deadlines() -> None:
    """r1 (deadline 60) pairs best with b1 (deadline 400) but DAB prefers r2 (deadline 90)."""
    inst = from_dict(tiny_document())
    assert muri_blossom(inst, estimator="am") == (("r1", "b1"), ("r2",))
    assert dab(inst, w=1.0) == (("r1", "b1"), ("r2",))
    assert dab(inst) == (("r1", "r2"), ("b1",))
    with pytest.raises(ValueError, match="w must"):
        dab(inst, w=2.0)


def test_speed_weights_paper_example() -> None:
    """Section 3.3.4: groups take 2 s / 3 s on GPU A and 6 s / 8 s on GPU B -> 4 groups."""
    times = np.array([[2.0, 6.0], [3.0, 8.0]])
    assert speed_weights(times) == pytest.approx([2.8, 1.0])
    jobs = tuple(Job(f"j{i}", 0.0, 10.0, 1, 10, "m", "before_forward", (RESNET, RESNET)) for i in range(4))
    inst = PackingInstance("ex", (GpuType("A", 1), GpuType("B", 1)), jobs)
    assert weighted_target(inst, times) == 4
    assert gpu_count_target(inst) == 2
    groups = (("j0", "j1"), ("j2", "j3"))
    assert unpack(inst, groups, 4, lambda g: 1.0) == (("j0",), ("j1",), ("j2",), ("j3",))
    assert unpack(inst, groups, 2, lambda g: 1.0) == groups


def test_muri_unpacking_example() -> None:
    """Section 3.3.4: 100 jobs in 50 pairs on 70 GPUs -> the 20 least efficient pairs split."""
    jobs = tuple(Job(f"j{i}", 0.0, 10.0, 1, 10, "m", "before_forward", (RESNET,)) for i in range(100))
    inst = PackingInstance("muri", (GpuType("V100", 70),), jobs)
    groups = tuple((f"j{2 * i}", f"j{2 * i + 1}") for i in range(50))
    out = unpack(inst, groups, gpu_count_target(inst), lambda g: float(g[0][1:]))
    assert len(out) == 70
    assert sum(1 for g in out if len(g) == 1) == 40
    assert ("j0",) in out and ("j98", "j99") in out


def test_top_edges_keeps_each_endpoints_heaviest() -> None:
    from packgap.heuristics.packing.blossom import top_edges

    u, v = np.array([0, 0, 0, 1, 1, 2]), np.array([1, 2, 3, 2, 3, 3])
    w = np.array([5.0, 4, 3, 2, 1, 0])
    assert top_edges(u, v, w, 1).tolist() == [True, True, True, False, False, False]
    assert top_edges(u, v, w, 2).tolist() == [True, True, True, True, True, False]


@settings(max_examples=15, deadline=None)
@given(instances(max_jobs=7))
def test_sparse_graph_with_every_neighbour_is_dense(inst: PackingInstance) -> None:
    assert dab(inst, neighbours=len(inst.jobs)) == dab(inst)
