"""``packgap figures``: rows computed once and stored, figures redrawn from them, and
REPRODUCTION.md listing every paper-vs-ours value (issue 13)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.figures import report_markdown, reproduce, reproductions
from packgap.analysis.kit import PaperValue, Reproduction, no_tick
from packgap.analysis.store import ResultStore

CALLS: list[bool] = []


def _compute(quick: bool, tick: Any) -> list[dict[str, Any]]:
    CALLS.append(quick)
    return [{"x": 1.0, "y": 2.5}]


def _draw(rows: Sequence[Mapping[str, Any]], out: Path) -> list[Path]:
    path = out / "fake.png"
    path.write_bytes(b"\x89PNG" + str(rows[0]["y"]).encode())
    return [path]


def _compare(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    return [PaperValue("Table 9", "mean JCT", 2.0, rows[0]["y"], "s", "ours is larger")]


FAKE = Reproduction("fake-table9", "CUCKOO", "Table 9", "a fake", _compute, _draw, _compare)


def test_rows_are_computed_once_and_figures_redrawn(tmp_path: Path) -> None:
    CALLS.clear()
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        first = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        again = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        full = reproduce([FAKE], quick=False, out=tmp_path, store=store, recompute=False, tick=no_tick)
        forced = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=True, tick=no_tick)
    finally:
        store.close()
    assert CALLS == [True, False, True]
    assert [d.reused for d in (*first, *again, *full, *forced)] == [False, True, False, False]
    assert again[0].rows == first[0].rows and (tmp_path / "fake.png").read_bytes() == b"\x89PNG2.5"
    text = report_markdown(first, quick=True)
    assert "| CUCKOO | Table 9 | mean JCT s | 2 | 2.5 | 1.250 | ours is larger |" in text
    assert "`fake.png`" in text


def test_every_reproduction_is_named_once_with_a_paper_item() -> None:
    found = reproductions()
    assert found, "no kit registers a reproduction"
    for name, r in found.items():
        assert name == r.name and r.paper and r.item and r.title
