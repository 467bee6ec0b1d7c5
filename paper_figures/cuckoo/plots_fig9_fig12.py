"""Figures of CUCKOO Fig. 9 and Fig. 12 (:mod:`packgap.paper_figures.cuckoo.fig9_fig12`): pure
functions of the computed rows, in the style of :mod:`packgap.analysis.plotting`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import (
    GREY,
    color,
    figure_legend,
    legend,
    new_figure,
    panels,
    save_figure,
    seed_bars,
    seeds_note,
)

Rows = Sequence[Mapping[str, Any]]


def draw_fig9(rows: Rows, out_dir: Path) -> list[Path]:
    """Queue length and overtime jobs over time of the first seed's CUCKOO and Muri runs (both readings), with
    the paper's windows of high submission shaded."""
    from packgap.paper_figures.cuckoo.fig9_fig12 import FIG9_SYSTEMS, WINDOWS

    first = min(r["seed"] for r in rows)
    fig = new_figure(13.0, 4.4)
    axes = panels(fig, 1, 2)
    for ax, key, label in zip(
        axes, ("queue", "overtime"), ("jobs waiting", "overtime jobs (late, unfinished)"), strict=True
    ):
        end = max(r["end_s"] for r in rows if r["seed"] == first)
        for system in FIG9_SYSTEMS:
            series = next(r[key] for r in rows if r["seed"] == first and r["system"] == system)
            times = [t / 1000 for t, _ in series] + [end / 1000]
            ax.step(times, [v for _, v in series] + [series[-1][1]], where="post", color=color(system), label=system)
        for k, (start, stop) in enumerate(WINDOWS):
            name = "paper's high-submission windows" if k == 0 else None
            ax.axvspan(start / 1000, stop / 1000, color=GREY, alpha=0.15, zorder=0, label=name)
        ax.set(xlabel="time (1,000 s)", ylabel=label)
    figure_legend(fig, axes[0], columns=3)
    seeds = len({r["seed"] for r in rows})
    fig.suptitle(
        f"CUCKOO Fig. 9: online, {rows[0]['jobs']} generated jobs (Helios-like pattern), seed {first} of {seeds} drawn"
    )
    return save_figure(fig, out_dir, "cuckoo_fig9")


def draw_fig12(rows: Rows, out_dir: Path) -> list[Path]:
    """CUCKOO's mean JCT and deadline satisfaction against w, mean (and sd from 3 seeds on)."""
    from packgap.paper_figures.cuckoo.fig9_fig12 import BEST_RANGE, WEIGHTS, by_weight

    fig = new_figure(12.0, 4.2)
    axes = panels(fig, 1, 2)
    seeds = len({r["seed"] for r in rows})
    for ax, metric, scale, label in zip(
        axes,
        ("mean_jct_s", "deadline_satisfaction"),
        (1.0, 0.01),
        ("mean JCT (s)", "deadline satisfaction (%)"),
        strict=True,
    ):
        values = by_weight(rows, metric)
        means, spread = seed_bars([[v / scale for v in values[w]] for w in WEIGHTS])
        ax.errorbar(WEIGHTS, means, yerr=spread, fmt="o-", capsize=3, color=color("cuckoo"), label="CUCKOO")
        ax.axvspan(*BEST_RANGE, color=GREY, alpha=0.15, zorder=0, label="paper's best range")
        ax.set(xlabel="w of eq. 12 (-)", ylabel=label)
        legend(ax)
    fig.suptitle(f"CUCKOO Fig. 12: DAB's weight w, online, {rows[0]['jobs']} generated jobs ({seeds_note(seeds)})")
    return save_figure(fig, out_dir, "cuckoo_fig12")
