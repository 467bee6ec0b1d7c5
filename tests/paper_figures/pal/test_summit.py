"""``pal-summit`` (issue 21, item 2) on a small trace: the sampled rounds' gaps are consistent,
the record part of the rows is the same twice (work limits, no wall clock), and it draws."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.analysis.kit import no_tick
from packgap.paper_figures.pal.summit import compare_summit, summit_rows
from tests.paper_figures.pal.test_reproduce import REPRODUCTIONS, drawn

MEASURED = {"simulate_cpu_s", "simulate_wall_s"}


def test_rows_are_deterministic_and_consistent(tmp_path: Path) -> None:
    rows = summit_rows(120, 64, 20.0, 40, no_tick)
    (row,) = rows
    assert row["rounds"] > 40 and len(row["status"]) == -(-row["rounds"] // 40)
    for objective, exact, bound, status in zip(
        row["objective"], row["exact"], row["bound"], row["status"], strict=True
    ):
        assert bound <= exact + 1e-9 and exact <= objective + 1e-9
        assert status != "optimal" or exact == pytest.approx(bound, rel=1e-9)
    again = summit_rows(120, 64, 20.0, 40, no_tick)[0]
    assert {k: v for k, v in again.items() if k not in MEASURED} == {k: v for k, v in row.items() if k not in MEASURED}
    values = {v.quantity: v for v in compare_summit(rows)}
    assert values["sampled rounds"].ours == len(row["status"])
    assert values["sampled rounds proven optimal by exact-blocks"].ours == row["status"].count("optimal")
    assert all(v.measured == (v.unit == "s") for v in values.values())
    assert drawn(REPRODUCTIONS["pal-summit"].draw(rows, tmp_path)) == [".pdf", ".png"]
