from __future__ import annotations

from pathlib import Path

from analysis.online import compare_online
from analysis.online_plots import plot_online
from tests.packing_online.cases import three_jobs


def test_plot_writes_a_png(tmp_path: Path) -> None:
    inst = three_jobs()
    path = plot_online(inst, compare_online(inst, ["none+fifo", "none+edf"]), tmp_path / "online.png")
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
