"""The "Your own heuristic" page (issue 32.5), ``docs/own_heuristic.py``, executed top to bottom in a
fresh folder: a plug-in placement rule and sharing policy from the user's own folder, their
certified gaps, a scored solution, a 2-worker sweep, a report and own jobs from a CSV."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "own_heuristic.py"


@pytest.mark.usefixtures("plugin_registry")
def test_the_own_heuristic_page_runs_top_to_bottom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    done = runpy.run_path(str(PAGE), run_name="__main__")
    mine = done["table"][done["table"]["method"] == "fastest-free"]
    assert len(mine) == 3 and (mine["certified_gap"] >= 0).all()
    assert mine["solver"].str.startswith("plugin:").all()
    assert done["scored"].gap == pytest.approx(mine["certified_gap"].iloc[0])
    assert all(r.objective is not None for r in done["results"]) and len(done["results"]) == 9
    assert {"pal", "fastest-free", "exact-blocks"} <= set(done["gaps"]["method"])
    assert [r["policy"] for r in done["simulated"]["runs"]] == ["fifo", "sjf-bsbf", "widest-first"]
    assert len(done["sharing"].jobs) == 4 and any("line 6" in str(n.message) for n in done["notes"])
