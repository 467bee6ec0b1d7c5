"""The planning-gaps reproduction: rows, paper-vs-ours values and the figure."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.analysis.figures import reproductions
from packgap.analysis.kit import no_tick
from packgap.errors import PackgapError
from packgap.paper_figures.gaps.planning import gap_rows
from packgap.paper_figures.gaps.plots_planning import HEURISTICS, gaps

REP = reproductions()["planning-gaps"]


def test_quick_rows_compare_and_draw(tmp_path: Path) -> None:
    rows = REP.compute(True, no_tick)
    assert {(r["groups"], r["seed"]) for r in rows} == {(n, s) for n in (4, 8, 12) for s in range(3)}
    for r in rows:
        assert r["best_bound"] <= r["best_exact"] + 1e-6 <= r["objective"] + 2e-6
        if r["method"] == "exact-milp":
            assert r["status"] == "optimal" and r["objective"] == r["best_exact"]
    assert all(0 <= g < 1 for m in HEURISTICS for g in gaps(rows, m, 12))
    values = {v.quantity: v for v in REP.compare(rows)}
    assert values["fifo JCT normalised to MCHP"].paper == 1.30
    assert values["mchp JCT normalised to MCHP"].ours == pytest.approx(1.0)
    assert all(v.ours is not None and v.ours >= 0 for v in values.values())
    # The measured cause of EDF beating MCHP: MCHP with one change at a time, from the rows.
    assert values["mchp shortest-first: objective normalised to MCHP at 12 groups"].ours < 1
    assert values["positional cost: objective normalised to MCHP at 12 groups"].ours < 1
    assert "mchp shortest-first 0." in values["edf JCT normalised to MCHP"].cause
    paths = REP.draw(rows, tmp_path)
    assert sorted(p.suffix for p in paths) == [".pdf", ".png"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_heuristic_below_the_bound_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("packgap.result.beats", lambda objective, bound: True)
    with pytest.raises(PackgapError, match="beats the proven bound"):
        gap_rows((3,), 1, 5.0, no_tick)
