"""The tutorial notebook (issue 20, item 4), ``docs/tutorial.py``, executed top to bottom as a
user runs it, in a fresh folder: every step must work on the code it documents."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial.py"


def test_the_tutorial_runs_top_to_bottom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    done = runpy.run_path(str(TUTORIAL), run_name="__main__")
    out = tmp_path / "tutorial-out"
    for name in ("planning.json", "packing.json", "sweep.duckdb", "profile.png", "cuckoo_table6.png"):
        assert (out / name).is_file(), name
    # A heuristic never beats the optimum the exact method proves.
    assert done["exact"].status == "optimal" and done["heuristic"].objective >= done["exact"].bound
    assert set(done["table"]["family"]) == {"planning", "packing"}
    assert len(done["results"]) == len(done["spec"].cells) == 24
    assert set(done["gaps"]["method"]) == {"mchp", "fifo", "edf", "exact-milp"}
    assert (out / "profile.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert done["table6"].rows and done["table6"].stored.version, "the reproduction's rows were not stored"
    assert all(v.paper == pytest.approx(v.ours) for v in done["done"][0].values if v.paper is not None)
