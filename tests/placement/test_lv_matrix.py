from __future__ import annotations

import pytest

from packgap.errors import UnknownNameError
from packgap.heuristics.placement.lv_matrix import lv_matrix, traverse

BINS = (0.89, 0.94, 1.06, 2.55)


def test_paper_example_traverses_in_the_listed_order() -> None:
    """Section III-C: (1, 0.89) -> (1, 0.94) -> (1, 1.06) -> (1.5, 1.34) -> (1.5, 1.41) ->
    (1.5, 1.59) -> (1.5, 3.88); (1, 2.55) is not walked."""
    order = traverse(BINS, 1.5)
    assert [(c.locality, c.value) for c in order] == [
        (1.0, 0.89),
        (1.0, 0.94),
        (1.0, 1.06),
        (1.5, 0.89),
        (1.5, 0.94),
        (1.5, 1.06),
        (1.5, 2.55),
    ]
    assert [round(c.product, 2) for c in order[:6]] == [0.89, 0.94, 1.06, 1.33, 1.41, 1.59]
    assert order[-1].product == pytest.approx(3.825)


def test_all_rule_walks_every_entry_by_product() -> None:
    order = traverse(BINS, 1.5, "all")
    assert len(order) == 8
    assert [(c.across, c.value) for c in order][6] == (False, 2.55)
    assert [c.product for c in order] == sorted(c.product for c in order)


def test_matrix_rows_and_ties() -> None:
    within, across = lv_matrix([1.0, 0.9, 1.0], 1.7)
    assert [c.value for c in within] == [0.9, 1.0] and all(c.across for c in across)
    order = traverse([0.9, 1.0], 1.0)
    assert [(c.across, c.value) for c in order] == [(False, 0.9), (True, 0.9), (True, 1.0)]
    with pytest.raises(UnknownNameError):
        traverse(BINS, 1.5, "zigzag")  # type: ignore[arg-type]
