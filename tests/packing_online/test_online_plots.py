from __future__ import annotations

from pathlib import Path

from packgap.analysis.kit import no_tick
from packgap.analysis.packing.online_plots import plot_document
from packgap.analysis.packing.simulate import run
from tests.packing_online.cases import three_jobs


def test_plot_writes_a_png(tmp_path: Path) -> None:
    document = run(three_jobs(), {"pipeline": "none+fifo,none+edf"}, 0, None, no_tick)
    path = plot_document(document, tmp_path / "online.png")
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
