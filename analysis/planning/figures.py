"""Figure of the planning reproduction: a pure function of the computed rows, PNG and PDF.

matplotlib is imported when the figure is drawn (:mod:`packgap.analysis.plotting`, no pyplot).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import new_figure, save_figure
from packgap.result import certified_gap, primal_gap

HEURISTICS = ("mchp", "fifo", "edf")
LABELS = {"mchp": "MCHP", "fifo": "FIFO", "edf": "EDF", "optimum": "proven optimum"}


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _errorbar(ax: Any, sizes: Sequence[int], values: Sequence[Sequence[float]], color: str, label: str) -> list[float]:
    """Mean per size with min-max bars over seeds; returns the means."""
    means = [mean(v) for v in values]
    bars = [
        [m - min(v) for m, v in zip(means, values, strict=True)],
        [max(v) - m for m, v in zip(means, values, strict=True)],
    ]
    ax.errorbar(sizes, means, bars, fmt="o-", capsize=3, color=color, label=label)
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
    left, right = fig.subplots(1, 2)
    sizes = sorted({r["groups"] for r in rows})
    for k, method in enumerate(HEURISTICS):
        low = _errorbar(left, sizes, [[100 * g for g in gaps(rows, method, n)] for n in sizes], f"C{k}", LABELS[method])
        high = [mean([100 * g for g in gaps(rows, method, n, certified=True)]) for n in sizes]
        left.fill_between(sizes, low, high, color=f"C{k}", alpha=0.2, lw=0)
    left.set(xlabel="groups", ylabel="gap to the proven optimum (%)", title="(a) gap; band: up to the proven bound")
    runs = [(m, list(instances(rows, m).values())) for m in HEURISTICS] + [("optimum", _best(rows))]
    for k, (method, mine) in enumerate(runs):
        rate = [[100 * (1 - r["late_groups"] / n) for r in mine if r["groups"] == n] for n in sizes]
        _errorbar(right, sizes, rate, f"C{k}", LABELS[method])
    right.set(xlabel="groups", ylabel="groups meeting their deadline (%)", title="(b) deadline satisfaction")
    for ax in (left, right):
        ax.legend(fontsize=8)
    seeds = len({r["seed"] for r in rows})
    fig.suptitle(f"CUCKOO planning vs the proven optimum (A800 x1 + RTX4090 x2; mean, min-max over {seeds} seeds)")
    return save_figure(fig, out_dir, "planning_gaps")
