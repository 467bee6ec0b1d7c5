"""CUCKOO's worked planning example (section 3.3.3, Table 5 / Table 6) as exact tests."""

from __future__ import annotations

import numpy as np

from packgap.heuristics.planning import mchp, mchp_edge_costs
from packgap.heuristics.planning.mchp import mchp_slots
from packgap.planning import GpuSequence, PlanningSolution


def test_table6_edge_weights(table5):
    slots = mchp_slots(table5)
    assert slots == [(0, 1), (0, 2), (1, 1), (1, 2)]  # (GPU A, order 1), (A, 2), (B, 1), (B, 2)
    c1, c2, total = mchp_edge_costs(table5)
    np.testing.assert_allclose(c1, [[2, 4.5, 3, 6.5], [3, 5.5, 4, 7.5]])
    np.testing.assert_allclose(c2, [[0, 0, 0, 1.5], [0, 0.5, 0, 2.5]])
    np.testing.assert_allclose(total, [[2, 4.5, 3, 8], [3, 6, 4, 10]])


def test_table6_matching_is_the_papers(table5):
    """'allocating Group 1 to GPU A Order 1 and Group 2 to GPU B Order 1 is the best matching'."""
    assert mchp(table5) == PlanningSolution((GpuSequence("A", 0, ("1",)), GpuSequence("B", 0, ("2",))))


def test_table6_tie_is_broken_in_queue_order(table5):
    """Both matchings cost 6; without the queue tie-break the solver may return either."""
    from packgap.heuristics.planning.mchp import queue_tie_break

    _, _, cost = mchp_edge_costs(table5)
    assert cost[0, 0] + cost[1, 2] == cost[0, 2] + cost[1, 0] == 6
    assert queue_tie_break(cost, np.array([2, 0])).tolist() == [0, 2]
    assert queue_tie_break(cost, np.array([0, 2])).tolist() == [0, 2]
