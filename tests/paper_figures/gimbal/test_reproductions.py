"""The GIMBAL reproductions: rows, paper-vs-ours values and figures (quick, and without traces)."""

from __future__ import annotations

import pytest

from packgap.analysis.calibration.commands import calibration_row
from packgap.analysis.figures import reproductions
from packgap.analysis.kit import no_tick

REPRODUCTIONS = reproductions()


@pytest.fixture
def no_traces(tmp_path, monkeypatch):
    empty = tmp_path / "traces"
    empty.mkdir()
    monkeypatch.setenv("PACKGAP_TRACES", str(empty))


def test_fig13_rows_compare_and_draw(tmp_path):
    rows = [calibration_row("JC2", g) for g in (10.0, 20.0)]
    for r in rows:
        assert r["continuous_bound_s"] <= r["exact_jct_s"] <= r["gimbal_jct_s"] <= r["gimbal_jct_with_search_s"]
    coarse, fine = sorted(rows, key=lambda r: -r["granularity"])
    assert fine["exact_jct_s"] <= coarse["exact_jct_s"]
    assert fine["gimbal_search_s"] >= coarse["gimbal_search_s"]
    rep = REPRODUCTIONS["gimbal-fig13"]
    assert [v.quantity for v in rep.compare([dict(r, job_set=n) for r in rows for n in ("JC2", "JC5", "JC7")])]
    assert all(p.is_file() for p in rep.draw(rows, tmp_path))


def test_fig15(tmp_path):
    rep = REPRODUCTIONS["gimbal-fig15"]
    rows = rep.compute(True, no_tick)
    assert len(rows) == 8
    assert all(r["full_search_s"] >= r["gimbal_search_s"] and r["full_jct_s"] <= r["gimbal_jct_s"] for r in rows)
    values = {v.quantity: v for v in rep.compare(rows)}
    assert values["full search time"].paper == 480.0
    assert 0 < values["GIMBAL's JCT performance vs exact optimum"].ours <= 1
    assert sorted(p.suffix for p in rep.draw(rows, tmp_path)) == [".pdf", ".png"]


@pytest.mark.parametrize("name", ["gimbal-fig12", "gimbal-fig8", "gimbal-table2", "gimbal-fig11"])
def test_end_to_end_reproductions_without_traces(no_traces, tmp_path, name):
    rep = REPRODUCTIONS[name]
    rows = rep.compute(True, no_tick)
    assert {r["workload"] for r in rows if r["trace"] == "philly"} == {"generated (no philly.csv)"}
    assert {r["workload"] for r in rows if r["trace"] == "alibaba"} <= {"generated (no openb pod list)"}
    values = rep.compare(rows)
    assert all(v.ours is not None and v.ours > 0 for v in values)
    assert all(p.is_file() for p in rep.draw(rows, tmp_path))
