"""exact-bb's search order (:meth:`packgap.models.sharing.branch_bound.Search.run`): depth-first
dives and best-first stretches in turns, depth first below every waiting node once the frontier
is full."""

from __future__ import annotations

import math
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.instances.sharing.generator import generate
from packgap.models.sharing import branch_bound
from packgap.models.sharing.branch_bound import solve
from packgap.sharing import FAMILY, SharingInstance
from tests.sharing.test_exact_rules import instances


@settings(max_examples=20, deadline=None)
@given(instances(), st.booleans(), st.sampled_from([0, 1, 3, 10]))
def test_every_search_order_proves_the_same_optimum(inst: SharingInstance, every_batch: bool, dive: int) -> None:
    """Depth first throughout against dives of 0 (best first only), 1, 3 or 10 nodes, with the
    frontier free or capped at three nodes: each order explores the nodes whose bound is below
    the incumbent."""
    depth = solve(inst, None, time_limit=None, every_batch=every_batch, dive=math.inf)
    turns = solve(inst, None, time_limit=None, every_batch=every_batch, dive=dive)
    with mock.patch.object(branch_bound, "FRONTIER", 3):
        capped = solve(inst, None, time_limit=None, every_batch=every_batch, dive=dive)
    for out in (depth, turns, capped):
        assert out.proven and out.lower_bound == out.sum_completion
        assert out.sum_completion == pytest.approx(depth.sum_completion, rel=1e-9)
        FAMILY.validate(inst, out.solution)


def test_a_stopped_search_with_best_first_turns_bounds_above_its_root() -> None:
    """README 6 jobs seed 4, stopped after 100 nodes (before the subset table): depth first
    throughout leaves children of the root open, so its bound is the root's; with dives of 25
    nodes, or best first only, the search has raised the least open bound by 1,033 s and
    1,082 s of summed completion, still below the optimum."""
    inst = generate(6, 4, nodes=4, hours=0.5, workload="physical")
    optimum = solve(inst, None, time_limit=None)
    depth = solve(inst, None, time_limit=None, max_nodes=100, dive=math.inf)
    turns = solve(inst, None, time_limit=None, max_nodes=100, dive=25)
    best = solve(inst, None, time_limit=None, max_nodes=100, dive=0)
    assert optimum.proven and not (depth.proven or turns.proven or best.proven)
    assert depth.lower_bound == pytest.approx(depth.root_bound, rel=1e-9)
    assert turns.lower_bound == pytest.approx(depth.lower_bound + 1_033, abs=1)
    assert best.lower_bound == pytest.approx(depth.lower_bound + 1_082, abs=1)
    assert best.lower_bound <= optimum.sum_completion


def test_a_child_left_open_is_bounded_by_its_parent_too() -> None:
    """README 6 jobs seed 4, the root expanded under a frontier key halfway between the root
    bound and the optimum, stopped at its first child: the children left open keep that key,
    although their quick bounds alone lie below the root bound (19,820 s against 20,455)."""
    inst = generate(6, 4, nodes=4, hours=0.5, workload="physical")
    optimum = solve(inst, None, time_limit=None)
    search = branch_bound.Search(inst, math.inf, 1, True, branch_bound.ALL_RULES)
    search.best = optimum.sum_completion
    search.floor = key = (optimum.root_bound + optimum.sum_completion) / 2
    search.search(0.0, 0.0, {}, list(range(6)), [0.0] * inst.cluster.gpus, [], None)
    assert search.stopped and search.nodes == 2
    assert search.open_bound == pytest.approx(key, rel=1e-12)


@pytest.mark.parametrize("dive", [-1, float("nan")])
def test_a_dive_is_a_count_of_nodes(dive: float) -> None:
    inst = generate(3, 1, nodes=1, hours=0.1, workload="physical")
    with pytest.raises(ValueError, match="dive is a count of search nodes, at least 0"):
        solve(inst, None, time_limit=None, dive=dive)
