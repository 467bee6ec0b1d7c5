"""REPRODUCTION.md as a citable record (issue 19): the coverage table names every registered
reproduction, cheap real reproductions give the same rows on every run, and none of their
disagreements with the paper goes without a note."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from packgap.analysis.agreement import agrees, unexplained
from packgap.analysis.coverage import COVERAGE
from packgap.analysis.figures import chosen, reproduce, reproductions
from packgap.analysis.kit import no_tick
from packgap.analysis.reproduction_md import record_part, report_markdown
from packgap.analysis.store import ResultStore

#: Reproductions that use no trace: seconds in all (default suite), and those whose solvers
#: once stopped on wall time (Table II's MILP, the planning gaps' exact solves; slow).
CHEAP = ("cuckoo-table4", "cuckoo-table6", "sjf-bsbf-table3")
SOLVING = ("sjf-bsbf-table2", "planning-gaps", "gimbal-fig13")


def test_coverage_names_every_reproduction_under_its_paper_and_only_those() -> None:
    found = reproductions()
    for r in found.values():
        if r.item != "new":
            assert any(f"`{r.name}`" in status for _, status in COVERAGE[r.paper]), r.name
    quoted = {w for items in COVERAGE.values() for _, s in items for w in s.split("`")[1::2] if "/" not in w}
    assert quoted <= set(found), sorted(quoted - set(found))


def test_every_reproduction_prints_its_size_in_both_modes() -> None:
    for r in reproductions().values():
        for quick in (True, False):
            assert all(isinstance(k, str) for k in r.size(quick)), r.name
            assert r.params(quick)["quick"] is quick


def _untimed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without their solve times (``wall_s``: kept in the store, never in the record)."""
    return [{k: v for k, v in row.items() if k != "wall_s"} for row in rows]


@pytest.mark.parametrize("names", [CHEAP, pytest.param(SOLVING, marks=pytest.mark.slow)], ids=["cheap", "solving"])
def test_two_runs_give_the_same_record_and_every_disagreement_has_a_cause(
    names: tuple[str, ...], tmp_path: Path
) -> None:
    items = chosen(list(names))
    runs = []
    for i in range(2):
        store = ResultStore(tmp_path / f"run{i}.duckdb")
        try:
            runs.append(reproduce(items, quick=True, out=tmp_path, store=store, recompute=True, tick=no_tick))
        finally:
            store.close()
    first, second = runs
    assert [_untimed(d.rows) for d in first] == [_untimed(d.rows) for d in second]
    assert record_part(report_markdown(first, True)) == record_part(report_markdown(second, True))
    for d in first:
        assert not unexplained(d.values), d.reproduction.name
        assert any(agrees(v, d.values) != "-" for v in d.values), d.reproduction.name


REST = sorted(set(reproductions()) - set(CHEAP) - set(SOLVING))


@pytest.mark.slow
@pytest.mark.traces
@pytest.mark.parametrize("name", REST)
def test_every_other_disagreement_has_a_cause(name: str, tmp_path: Path) -> None:
    """The quick run of every reproduction not run twice above: each disagreement carries a note."""
    store = ResultStore(tmp_path / "run.duckdb")
    try:
        (done,) = reproduce(chosen([name]), quick=True, out=tmp_path, store=store, recompute=True, tick=no_tick)
    finally:
        store.close()
    assert not unexplained(done.values), [v.quantity for v in unexplained(done.values)]
    assert any(agrees(v, done.values) != "-" for v in done.values)


def test_the_record_grades_direction_and_magnitude_with_counts() -> None:
    """Issue 33.3 on a small set: two numbers agree in direction, one of them is off in
    magnitude without a cause; one value equal by construction and one timing are not counted."""
    from packgap.analysis.figures import Reproduced
    from packgap.analysis.kit import PaperValue, Reproduction, equal, side
    from packgap.analysis.store import StoredRows

    values = [
        PaperValue("Fig. 11", "pal least gain", 21.0, 5.788, "%", direction=side(21.0, 0.0)),
        PaperValue("Fig. 11", "pal most gain", 42.0, 40.0, "%", direction=side(42.0, 0.0)),
        PaperValue("Table 9", "Muri Norm. JCT", 1.81, 0.9, "", direction=side(1.81, 1.0), cause="measured: x"),
        PaperValue("Table 9", "CUCKOO Norm. JCT", 1.0, 1.0, "", direction=equal(), by_construction=True),
        PaperValue("Table 9", "seconds", 3.0, 0.1, "s", measured=True),
    ]
    reproduction = Reproduction("toy", "CUCKOO", "Fig. 11", "toy", lambda q, t: [], lambda r, o: [], lambda r: values)
    done = Reproduced(reproduction, [], values, StoredRows([], "", "", "0", 0.0), reused=False, quick=False)
    text = report_markdown([done], False)
    assert "Direction: 3 numbers are compared with a direction the paper states, 2 agree, 1 do not" in text
    assert "Magnitude: 3 numbers have a paper value to compare with, 1 lie within the stated tolerance" in text
    assert "1 numbers agree in direction but not in magnitude without a measured cause yet" in text
    assert "1 values equal the paper's by construction" in text
    assert "**Off in magnitude, no measured cause yet:**\n* toy: pal least gain" in text
    rows = {line.split(" | ")[2]: line for line in text.splitlines() if line.startswith("| CUCKOO |")}
    assert "| yes | no (±25 %) |" in rows["pal least gain %"] and "no measured cause yet" in rows["pal least gain %"]
    assert "| yes | yes (±25 %) |" in rows["pal most gain %"]
    assert "| no | no (±25 %) | measured: x |" in rows["Muri Norm. JCT"]
    assert "| by construction | by construction |" in rows["CUCKOO Norm. JCT"]
    run_part = text.split("## This run", 1)[1]
    assert "Measured on this machine (timings, and numbers cut by a wall-clock limit):" in run_part
