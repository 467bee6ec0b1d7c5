"""exact-bb's search order (:meth:`packgap.models.sharing.branch_bound.Search.run`): depth first
for a share of the time and node limits, then best first, then depth first below each open
node in the order of its bound."""

from __future__ import annotations

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
@given(instances(), st.booleans())
def test_every_search_order_proves_the_same_optimum(inst: SharingInstance, every_batch: bool) -> None:
    """Depth first throughout, best first from the root, best first until a frontier of three
    open nodes, and a turn from depth first to best first after ten nodes: each order explores
    the nodes whose bound is below the incumbent."""
    depth = solve(inst, None, time_limit=None, every_batch=every_batch, depth_first=1.0)
    best = solve(inst, None, time_limit=None, every_batch=every_batch, depth_first=0.0)
    turned = solve(inst, None, time_limit=None, every_batch=every_batch, max_nodes=10**6, depth_first=1e-5)
    with mock.patch.object(branch_bound, "FRONTIER", 3):
        capped = solve(inst, None, time_limit=None, every_batch=every_batch, depth_first=0.0)
    for out in (depth, best, turned, capped):
        assert out.proven and out.lower_bound == out.sum_completion
        assert out.sum_completion == pytest.approx(depth.sum_completion, rel=1e-9)
        FAMILY.validate(inst, out.solution)


def test_a_stopped_search_that_turned_best_first_bounds_above_its_root() -> None:
    """README 6 jobs seed 4, stopped after 100 nodes (before the subset table): depth first
    throughout leaves children of the root open, so its bound is the root's; turned best first
    after 50 nodes, or best first from the root (the default), the search has raised the least
    open bound by 989 s and 1,082 s of summed completion, still below the optimum."""
    inst = generate(6, 4, nodes=4, hours=0.5, workload="physical")
    optimum = solve(inst, None, time_limit=None)
    depth = solve(inst, None, time_limit=None, max_nodes=100, depth_first=1.0)
    turned = solve(inst, None, time_limit=None, max_nodes=100, depth_first=0.5)
    best = solve(inst, None, time_limit=None, max_nodes=100)
    assert optimum.proven and not (depth.proven or turned.proven or best.proven)
    assert depth.lower_bound == pytest.approx(depth.root_bound, rel=1e-9)
    assert turned.lower_bound == pytest.approx(depth.lower_bound + 989, abs=1)
    assert best.lower_bound == pytest.approx(depth.lower_bound + 1_082, abs=1)
    assert best.lower_bound <= optimum.sum_completion


@pytest.mark.parametrize("share", [-0.1, 1.5, float("nan")])
def test_the_depth_first_share_is_a_share(share: float) -> None:
    inst = generate(3, 1, nodes=1, hours=0.1, workload="physical")
    with pytest.raises(ValueError, match=r"depth_first is a share of the time and node limits, in \[0, 1\]"):
        solve(inst, None, time_limit=None, depth_first=share)
