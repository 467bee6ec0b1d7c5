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
