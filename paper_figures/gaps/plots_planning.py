"""Figure of the planning reproduction: a pure function of the computed rows, PNG and PDF.

matplotlib is imported when the figure is drawn (:mod:`packgap.analysis.plotting`, no pyplot).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import band_note, band_shows, color, legend, new_figure, panels, save_figure, seeds_note
from packgap.result import certified_gap, primal_gap

HEURISTICS = ("mchp", "fifo", "edf")
LABELS = {"mchp": "MCHP", "fifo": "FIFO", "edf": "EDF", "optimum": "proven optimum"}


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _errorbar(ax: Any, sizes: Sequence[int], values: Sequence[Sequence[float]], method: str) -> list[float]:
    """Mean per size with min-max bars over seeds (none below 3 seeds); returns the means."""
    means = [mean(v) for v in values]
    bars = None
    if min(len(v) for v in values) >= 3:
        bars = [
            [m - min(v) for m, v in zip(means, values, strict=True)],
            [max(v) - m for m, v in zip(means, values, strict=True)],
        ]
    ax.errorbar(sizes, means, bars, fmt="o-", capsize=3, color=color(method), label=LABELS[method])
    return means


def instances(rows: Sequence[Mapping[str, Any]], method: str) -> dict[tuple[int, int], Mapping[str, Any]]:
    """``method``'s row per (groups, seed)."""
    return {(r["groups"], r["seed"]): r for r in rows if r["method"] == method}


def gaps(rows: Sequence[Mapping[str, Any]], method: str, groups: int, *, certified: bool = False) -> list[float]:
    """Per seed: ``method``'s gap to the best exact plan (or, certified, to the best bound)."""
    key = "best_bound" if certified else "best_exact"
    gap = certified_gap if certified else primal_gap
    found = (gap(r["objective"], r[key]) for r in rows if r["method"] == method and r["groups"] == groups)
    return [g for g in found if g is not None]


def _best(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The row of the best exact plan of each instance."""
    exact = [r for r in rows if r["method"].startswith("exact") and r["objective"] == r["best_exact"]]
    return list({(r["groups"], r["seed"]): r for r in exact}.values())


def draw_gaps(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    fig = new_figure(12.8, 4.0)
    left, right = panels(fig, 1, 2)
    sizes = sorted({r["groups"] for r in rows})
    bands = []
    for method in HEURISTICS:
        low = _errorbar(left, sizes, [[100 * g for g in gaps(rows, method, n)] for n in sizes], method)
        bands.append((method, low, [mean([100 * g for g in gaps(rows, method, n, certified=True)]) for n in sizes]))
    shown = [(m, low, high) for m, low, high in bands if band_shows(left, low, high)]
    for method, low, high in shown:
        left.fill_between(sizes, low, high, color=color(method), alpha=0.2, lw=0)
    lows, highs = [v for b in bands for v in b[1]], [v for b in bands for v in b[2]]
    title = "(a) gap; band: up to the proven bound" if shown else f"(a) gap ({band_note(lows, highs)})"
    left.set(xlabel="groups (-)", ylabel="gap to the best exact plan (%)", title=title)
    runs = [(m, list(instances(rows, m).values())) for m in HEURISTICS] + [("optimum", _best(rows))]
    for method, mine in runs:
        rate = [[100 * (1 - r["late_groups"] / n) for r in mine if r["groups"] == n] for n in sizes]
        _errorbar(right, sizes, rate, method)
    right.set(xlabel="groups (-)", ylabel="groups meeting their deadline (%)", title="(b) deadline satisfaction")
    for ax in (left, right):
        legend(ax, outside=True)
    seeds = len({r["seed"] for r in rows})
    spread = "min-max" if seeds >= 3 else seeds_note(seeds)
    fig.suptitle(f"CUCKOO planning vs the exact plans (A800 x1 + RTX4090 x2; mean over {seeds} seeds, {spread})")
    return save_figure(fig, out_dir, "planning_gaps")
