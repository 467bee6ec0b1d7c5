"""SJF-BSBF's Table IV reproduction: rows, paper values (the copy error, Pollux not reproduced) and figures."""

from __future__ import annotations

from pathlib import Path

from packgap.paper_figures import sjf_bsbf


def test_reproduction_rows_draw_and_compare(tmp_path: Path) -> None:
    repro = {r.item: r for r in sjf_bsbf.REPRODUCTIONS}
    rows = repro["Table IV"].compute(True, lambda *a: None)
    values = repro["Table IV"].compare(rows)
    assert any("copy error" in v.note for v in values)
    assert any(v.quantity.startswith("pollux") and v.ours is None for v in values)
    assert all(v.ours is not None and v.ours > 0 for v in values if v.quantity.startswith("sjf-bsbf"))
    paths = repro["Table IV"].draw(rows, tmp_path)
    assert {p.suffix for p in paths} == {".png", ".pdf"} and all(p.stat().st_size > 0 for p in paths)
