"""Issue 33.2: report plots ready for a paper, read back from the matplotlib objects."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from scipy import stats

from packgap.analysis.profiles import plot_profiles, ratio_ticks
from packgap.analysis.report import plot_gaps


def _frame() -> pd.DataFrame:
    """Two identical heuristics (a, b), a third (c) and an exact method, 3 seeds at 4 and 8 jobs."""
    rows = []
    gaps = {"a": [0.1, 0.2, 0.3], "b": [0.1, 0.2, 0.3], "c": [0.05, 0.05, 0.08], "exact": [0.0, 0.0, 0.0]}
    for jobs in (4, 8):
        for method, values in gaps.items():
            for seed, g in enumerate(values):
                rows.append(
                    {
                        "family": "packing",
                        "instance_digest": f"{jobs}-{seed}",
                        "method": method,
                        "exact": method == "exact",
                        "jobs": jobs,
                        "certified_gap": g * jobs / 4,
                        "best_found_gap": g,
                        "objective": 1.0 + g,
                        "wall_s": 0.1 + seed,
                    }
                )
    return pd.DataFrame(rows)


def test_the_gap_plot_shows_certified_gaps_apart_with_spread(tmp_path: Path) -> None:
    fig = plot_gaps(_frame(), "jobs", tmp_path / "gaps.png")
    assert (tmp_path / "gaps.png").read_bytes()[:4] == b"\x89PNG"
    heuristics, exact = fig.axes
    assert (heuristics.get_title(), exact.get_title()) == ("heuristics", "exact methods")
    title = fig._suptitle.get_text()
    assert "certified gap" in title and "n = 3 per point" in title and "95 %" in title
    assert heuristics.get_ylabel() == "certified gap (%)" and "best proven bound of its class" in title
    # an integer axis: one tick per size, written as integers
    for ax in fig.axes:
        assert [t.get_text() for t in ax.get_xticklabels()] == ["4", "8"]
    series = {c.get_label(): c for c in heuristics.containers}
    lines = {label: c.lines[0] for label, c in series.items()}
    assert set(lines) == {"a (= b)", "b (= a)", "c"}
    # the plotted means are the certified gaps in percent (4 jobs: mean 0.2; 8 jobs: twice that)
    assert list(lines["a (= b)"].get_ydata()) == pytest.approx([20.0, 40.0])
    # coincident series: each its own marker and line style, and drawn a little apart
    a, b = lines["a (= b)"], lines["b (= a)"]
    assert a.get_marker() != b.get_marker() and a.get_linestyle() != b.get_linestyle()
    assert list(a.get_ydata()) == list(b.get_ydata()) and all(a.get_xdata() != b.get_xdata())
    # spread: the 95 % t interval of the mean over the 3 seeds at 4 jobs
    half = stats.t.ppf(0.975, 2) * pd.Series([10.0, 20.0, 30.0]).std() / 3**0.5
    bars = series["a (= b)"].lines[2][0]
    ends = sorted(bars.get_segments()[0][:, 1])
    assert ends == pytest.approx([max(0.0, 20 - half), 20 + half])
    assert [c.get_label() for c in exact.containers] == ["exact"]


def test_the_gap_plot_draws_the_best_found_gap_on_request(tmp_path: Path) -> None:
    fig = plot_gaps(_frame(), "jobs", tmp_path / "g.png", gap="best-found")
    assert fig.axes[0].get_ylabel() == "best-found gap (%)" and "best objective found" in fig._suptitle.get_text()
    line = next(c.lines[0] for c in fig.axes[0].containers if c.get_label() == "c")
    assert list(line.get_ydata()) == pytest.approx([100 * 0.18 / 3, 100 * 0.18 / 3])


def test_profile_ratio_ticks_are_plain_and_apart(tmp_path: Path) -> None:
    assert ratio_ticks(2.1) == [1.0, 1.2, 1.5, 2.0]
    assert ratio_ticks(1000) == [1.0, 3.0, 10.0, 50.0, 1000.0]
    fig = plot_profiles(_frame(), "objective", tmp_path / "p.png")
    ax = fig.axes[0]
    shown = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert shown == ["1", "1.2", "1.5", "2"] and not any("^" in t for t in shown)
    labels = [line.get_label() for line in ax.get_lines()]
    assert "a (= b)" in labels and len({line.get_marker() for line in ax.get_lines()}) == len(labels)
