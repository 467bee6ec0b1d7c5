"""Every reproduction's figure in the paper style of :mod:`packgap.analysis.plotting` (issue 19.6).

Each registered reproduction draws from stored rows (``figure_rows.json``: the rows of
``packgap figures --all --quick``, lists cut to 40 entries, numbers to 6 digits); a legend
over data or outside the figure, an axis without a label, a variable name or a power-of-ten log
tick is a :class:`~packgap.analysis.plotting.FigureWarning`, here a failure. A new
reproduction needs its rows in the file (the first test says so). The checker itself is
tested on figures built to fail.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from packgap.analysis import plotting
from packgap.analysis.figures import reproductions
from packgap.analysis.plotting import (
    COLORS,
    CYCLE,
    FigureWarning,
    color,
    legend,
    log_axis,
    new_figure,
    panels,
    problems,
    save_figure,
    seed_bars,
)

ROWS = json.loads((Path(__file__).parent / "figure_rows.json").read_text())


def test_every_reproduction_has_stored_rows() -> None:
    missing = sorted(set(reproductions()) - set(ROWS))
    assert not missing, f"add rows of {missing} to tests/analysis/figure_rows.json"


@pytest.mark.parametrize("name", sorted(ROWS))
def test_figure_reads_well(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plotting, "DPI", 40)  # layout is in inches: the checks hold at any resolution
    with warnings.catch_warnings():
        warnings.simplefilter("error", FigureWarning)
        paths = reproductions()[name].draw(ROWS[name], tmp_path)
    assert paths and all(p.stat().st_size > 0 for p in paths)


def _bars() -> tuple[object, object]:
    fig = new_figure(4, 3)
    (ax,) = panels(fig)
    ax.bar([0, 1, 2], [5, 5, 5], label="ours")
    ax.set(xlabel="policy", ylabel="mean JCT (h)")
    return fig, ax


def test_a_legend_over_bars_is_found() -> None:
    fig, ax = _bars()
    ax.legend(loc="center")
    fig.canvas.draw()
    assert any("covers data" in p for p in problems(fig))


def test_bars_of_one_series_over_another_are_found() -> None:
    fig, ax = _bars()
    ax.bar([0, 1, 2], [6, 4, 6], label="theirs")
    fig.canvas.draw()
    assert [p for p in problems(fig) if "hidden" in p] == ["2 bars of '' are hidden behind another series' bars"]
    side, bx = _bars()
    bx.bar([0.5, 1.5, 2.5], [3, 3, 3], width=0.2, label="beside")
    bx.bar([0, 1, 2], [2, 2, 2], bottom=[5, 5, 5], label="stacked")
    bx.bar([0, 1, 2], [1, 1, 1], label="part of ours")
    side.canvas.draw()
    assert not any("hidden" in p for p in problems(side))


def test_the_free_corner_or_outside() -> None:
    fig, ax = _bars()
    ax.set_ylim(0, 9)
    ax.plot([0, 1], [8, 8], label="high on the left")
    chosen = legend(ax)
    fig.canvas.draw()
    assert chosen.get_window_extent().x0 > ax.bbox.x0 + ax.bbox.width / 2 and not problems(fig)
    full, bx = _bars()
    outside = legend(bx)
    full.canvas.draw()
    assert outside.get_window_extent().x0 > bx.bbox.x1 and not problems(full)


@pytest.mark.filterwarnings("ignore:constrained_layout not applied")
def test_a_legend_wider_than_the_figure_and_missing_labels(tmp_path: Path) -> None:
    fig = new_figure(3, 2)
    (ax,) = panels(fig)
    ax.plot([1, 2], [1, 2], label="a very long legend entry " * 4)
    ax.set_xlabel("duration_median_s")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    with pytest.warns(FigureWarning) as caught:
        save_figure(fig, tmp_path, "bad")
    text = " ".join(str(w.message) for w in caught)
    assert "outside the figure" in text and "has no label" in text and "variable name" in text


def test_log_axes_show_the_values() -> None:
    fig = new_figure(4, 3)
    (ax,) = panels(fig)
    ax.plot([64, 256, 1024], [1, 2, 3])
    ax.set(xlabel="cluster size (GPUs)", ylabel="time (s)")
    ax.set_xscale("log")
    fig.canvas.draw()
    assert any("powers of ten" in p for p in problems(fig))
    log_axis(ax, [64, 256, 1024])
    fig.canvas.draw()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["64", "256", "1024"] and not problems(fig)
    ax.set_yscale("symlog", linthresh=1.0)
    fig.canvas.draw()
    assert any("log y axis" in p for p in problems(fig))
    log_axis(ax, axis="y", scale="symlog", linthresh=1.0)
    fig.canvas.draw()
    assert not problems(fig)


def test_one_colour_per_name_from_the_palette() -> None:
    assert set(COLORS.values()) <= set(CYCLE) | {"#000000"}
    assert color("PAL") == color("pal") == color("gimbal") and color("FIFO") == color("fifo")
    assert seed_bars([[1.0, 2.0], [3.0, 4.0]])[1] is None
    assert seed_bars([[1.0, 2.0, 3.0]]) == ([2.0], [pytest.approx(0.8165, abs=1e-4)])


def test_the_same_rows_draw_the_same_bytes(tmp_path: Path) -> None:
    """Issue 19.5: a PDF carried its creation time, so two runs of one command differed."""
    first = reproductions()["cuckoo-table6"].draw(ROWS["cuckoo-table6"], tmp_path / "a")
    second = reproductions()["cuckoo-table6"].draw(ROWS["cuckoo-table6"], tmp_path / "b")
    assert [p.name for p in first] == [p.name for p in second] and any(p.suffix == ".pdf" for p in first)
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(first, second, strict=True))
