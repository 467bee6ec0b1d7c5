from __future__ import annotations

import pytest
from hypothesis import given, settings

from packgap.errors import UnknownNameError
from packgap.heuristics.placement import POLICIES, bin_class, bin_scores, pal, placement_order, pm_first
from packgap.heuristics.placement.baselines import packed_gpus
from packgap.heuristics.placement.pm_first import pm_first_gpus
from packgap.placement import FAMILY, Job, PlacementInstance
from packgap.placement.instance import from_dict
from tests.placement.round_docs import round_document
from tests.placement.strategies import rounds


def test_queue_reordering_of_fig4() -> None:
    """Fig. 4: demand exceeds the cluster after 5 jobs; only those 5 are sorted by class, so
    the incoming class A job stays behind them."""
    queue = [
        Job("1", 2, "B", "m"),
        Job("2", 1, "A", "m"),
        Job("3", 3, "C", "m"),
        Job("4", 1, "B", "m"),
        Job("5", 1, "A", "m"),
        Job("6", 4, "A", "m"),
    ]
    order = placement_order(queue, 8, ("A", "B", "C"))
    assert [j.id for j in order] == ["2", "5", "1", "4", "3", "6"]


def test_pm_first_takes_best_scores_class_a_first() -> None:
    inst = from_dict(round_document())
    # Binned, class A has two bins: GPU 3 (2.5) alone, the rest at their mean 1.014 (K = 2).
    bins = bin_scores(inst)
    assert bins["A"].k == 2 and bins["A"].values[1] == 2.5
    sol = pm_first(inst, bins=bins)
    # A jobs first, ties by GPU id: j1 (3 GPUs) gets 0, 1, 2; j2 gets 4, 5; j0 (C) the best C GPU
    assert sol.allocations == {"j1": (0, 1, 2), "j2": (4, 5), "j0": (3,)}
    fine = {"A": bin_class("A", inst.pm_scores["A"], k_range=range(8, 9)), "C": bins["C"]}
    assert pm_first(inst, bins=fine).allocations["j1"] == (0, 4, 5)
    # node-fit: among the 1.0 GPUs, node 0 holds exactly 2 (= demand), node 1 only one
    assert pm_first_gpus([0, 1, 2, 3], 2, [1.0, 1.0, 0.5, 1.0], 2, "node-fit") == [2, 0]


def test_pal_packs_where_pm_first_spreads() -> None:
    # node 0: GPUs 0-3 score 1.0; node 1: GPU 4 scores 0.9, the rest 1.0. A 4-GPU job:
    # PM-First takes GPU 4 and spreads; PAL's (1, 1.0) cell packs node 0.
    scores = (1.0, 1.0, 1.0, 1.0, 0.9, 1.0, 1.0, 1.0)
    inst = PlacementInstance("p", 2, 4, ("A",), {"A": scores}, 1.5, (Job("j", 4, "A", "m"),))
    assert 4 in pm_first(inst).allocations["j"]
    assert pal(inst).allocations["j"] == (0, 1, 2, 3)
    assert FAMILY.evaluate(inst, pal(inst)).objective < FAMILY.evaluate(inst, pm_first(inst)).objective


def test_packed_rule() -> None:
    free = [1, 2, 3, 4, 5, 6, 7, 9, 10]  # nodes of 4: node0 {1,2,3}, node1 {4..7}, node2 {9,10}
    assert packed_gpus(free, 2, 4) == [9, 10]
    assert packed_gpus(free, 3, 4) == [1, 2, 3]
    assert packed_gpus(free, 1, 4) == [9]
    assert packed_gpus(free, 6, 4) == [4, 5, 6, 7, 1, 2]


@settings(max_examples=80, deadline=None)
@given(rounds())
def test_every_policy_places_validly_and_deterministically(inst: PlacementInstance) -> None:
    for policy in POLICIES.values():
        sol = policy.configure(inst).place(inst, 7)
        FAMILY.validate(inst, sol)
        assert policy.configure(inst).place(inst, 7) == sol


def test_unknown_options_fail_loudly() -> None:
    inst = from_dict(round_document())
    for bad in ({"traversal": "zigzag"}, {"tie_break": "coin"}, {"node_order": "random"}):
        with pytest.raises(UnknownNameError):
            pal(inst, **bad)  # type: ignore[arg-type]
