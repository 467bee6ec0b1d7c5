"""The reproductions' registry (issue 27): each paper's package lists its reproductions, the engine
finds them through the ``packgap.reproductions`` entry point, and none is left out or listed twice."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import sys
import types
from importlib.metadata import EntryPoint
from typing import Any

import pytest

import packgap.paper_figures as papers
from packgap.analysis import figures
from packgap.analysis.kit import Reproduction
from packgap.errors import PackgapError

PACKAGES = ("cuckoo", "sjf_bsbf", "pal", "gimbal", "gaps")


def _defined() -> list[Reproduction]:
    """Every Reproduction bound at module level in any module of paper_figures."""
    found = []
    for info in pkgutil.walk_packages(papers.__path__, "packgap.paper_figures."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            items = value if isinstance(value, tuple) else (value,)
            found += [v for v in items if isinstance(v, Reproduction)]
    return found


def test_every_reproduction_is_listed_once_by_its_papers_package() -> None:
    listed = [r for name in PACKAGES for r in importlib.import_module(f"packgap.paper_figures.{name}").REPRODUCTIONS]
    assert len({r.name for r in listed}) == len(listed) == len(papers.REPRODUCTIONS)
    assert {id(r) for r in _defined()} == {id(r) for r in listed}


def test_the_engine_finds_them_through_the_entry_point() -> None:
    assert list(figures.reproductions().values()) == list(papers.REPRODUCTIONS)


@pytest.mark.parametrize(
    ("package", "items"),
    [
        ("sjf_bsbf", {"Table II", "Table III", "Table IV", "Fig. 4", "Fig. 5", "Fig. 6a", "Fig. 6b"}),
        ("cuckoo", {"Table 1", "Table 4", "Table 6", "Tables 9-14", "Fig. 9", "Fig. 12"}),
        ("gimbal", {"Table 2", "Fig. 8", "Fig. 9", "Fig. 10", "Fig. 11", "Fig. 12", "Fig. 13", "Fig. 15"}),
        ("pal", {"Fig. 11", "Fig. 12", "Fig. 13", "Fig. 18", "Table IV, Figs. 9-10", "Figs. 14-17, 19"}),
    ],
)
def test_each_paper_package_holds_its_numbered_results(package: str, items: set[str]) -> None:
    listed = importlib.import_module(f"packgap.paper_figures.{package}").REPRODUCTIONS
    assert items <= {r.item for r in listed}
    paper = {"sjf_bsbf": "SJF-BSBF", "cuckoo": "CUCKOO", "gimbal": "GIMBAL", "pal": "PAL"}[package]
    assert {r.paper for r in listed} == {paper}


def _points(monkeypatch: pytest.MonkeyPatch, *points: EntryPoint) -> None:
    monkeypatch.setattr(figures, "entry_points", lambda group: [p for p in points if p.group == group])
    figures.reproductions.cache_clear()


@pytest.fixture
def fresh() -> Any:
    figures.reproductions.cache_clear()
    yield
    figures.reproductions.cache_clear()


def test_another_package_adds_reproductions_after_packgaps_own(monkeypatch: pytest.MonkeyPatch, fresh: Any) -> None:
    lab = types.ModuleType("lab_figures")
    mine = dataclasses.replace(papers.REPRODUCTIONS[0], name="lab-fig1")
    lab.REPRODUCTIONS = (mine,)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lab_figures", lab)
    own = EntryPoint("papers", "packgap.paper_figures:REPRODUCTIONS", figures.GROUP)
    theirs = EntryPoint("a-lab", "lab_figures:REPRODUCTIONS", figures.GROUP)
    _points(monkeypatch, theirs, own)
    assert list(figures.reproductions().values()) == [*papers.REPRODUCTIONS, mine]
    lab.REPRODUCTIONS = (papers.REPRODUCTIONS[0],)  # type: ignore[attr-defined]
    figures.reproductions.cache_clear()
    with pytest.raises(PackgapError, match=r"'planning-gaps' comes from packgap\.paper_figures:REPRODUCTIONS and lab_"):
        figures.reproductions()


def test_no_entry_point_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, fresh: Any) -> None:
    _points(monkeypatch)
    with pytest.raises(PackgapError, match="is packgap installed"):
        figures.reproductions()
