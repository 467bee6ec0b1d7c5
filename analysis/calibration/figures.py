"""Figures of the GIMBAL reproductions: pure functions of the stored rows, PNG and PDF each.

Every figure puts the exact calibration optimum beside GIMBAL, so it shows how much of the
possible gain the greedy search reaches. matplotlib is imported when a figure is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.calibration.simulate import improvement
from packgap.analysis.plotting import new_figure, save_figure

VARIANT_LABELS = {
    "unequal": "+ unequal packing",
    "liss": "+ LISS",
    "gimbal": "+ LGRR (GIMBAL)",
    "exact": "exact calibration",
}
#: Improvement over the base scheduler: Fig. 12 (unequal, + LISS, + LGRR) and Fig. 8 (+ GIMBAL).
PAPER_FIG12 = {"lucid": (1.05, 1.18, 1.28), "gandiva": (1.04, 1.11, 1.13), "gavel": (1.01, 1.10, 1.11)}
PAPER_FIG8 = {"lucid": 1.28, "gandiva": 110 / 90, "gavel": 4.5 / 4.05}
METRIC_LABELS = {"lucid": "JCT (Lucid)", "gandiva": "deadlines met (Gandiva)", "gavel": "makespan (Gavel)"}


def draw_fig13(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    fig = new_figure(11, 4)
    left, right = fig.subplots(1, 2)
    for k, name in enumerate(dict.fromkeys(r["job_set"] for r in rows)):
        mine = sorted((r for r in rows if r["job_set"] == name), key=lambda r: r["granularity"])
        g = [r["granularity"] for r in mine]
        color = f"C{k}"
        left.plot(g, [r["gimbal_search_s"] for r in mine], "o-", color=color, label=f"{name} GIMBAL")
        right.plot(g, [r["gimbal_jct_with_search_s"] / 3600 for r in mine], "o-", color=color, label=f"{name} GIMBAL")
        right.plot(g, [r["exact_jct_s"] / 3600 for r in mine], "s--", color=color, label=f"{name} exact grid optimum")
        right.axhline(min(r["continuous_bound_s"] for r in mine) / 3600, color=color, ls=":", lw=1)
    left.set(xlabel="LGRR granularity (%)", ylabel="search time (s)", title="(a) time to search")
    right.set(xlabel="LGRR granularity (%)", ylabel="mean JCT (h)", title="(b) mean JCT (dotted: continuous bound)")
    left.legend(fontsize=8)
    right.legend(fontsize=7)
    fig.suptitle("GIMBAL Fig. 13: granularity vs search time and JCT, with the exact optimum")
    return save_figure(fig, out_dir, "gimbal_fig13")


def draw_fig15(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    fig = new_figure(11, 4)
    left, right = fig.subplots(1, 2)
    names = [r["job_set"] for r in rows]
    x = range(len(rows))
    left.bar([i - 0.2 for i in x], [r["full_search_s"] for r in rows], 0.4, label="full search")
    left.bar([i + 0.2 for i in x], [r["gimbal_search_s"] for r in rows], 0.4, label="early exit")
    right.bar([i - 0.27 for i in x], [r["full_jct_s"] / 3600 for r in rows], 0.27, label="full search")
    right.bar(list(x), [r["gimbal_jct_s"] / 3600 for r in rows], 0.27, label="early exit")
    right.bar([i + 0.27 for i in x], [r["exact_jct_s"] / 3600 for r in rows], 0.27, label="exact grid optimum")
    for ax in (left, right):
        ax.set_xticks(list(x), names)
        ax.set_xlabel("job combination (Table 3)")
        ax.legend(fontsize=8)
    left.set(ylabel="search time (s)", title="(a) search duration")
    right.set(ylabel="mean JCT (h)", title="(b) mean JCT of the set")
    fig.suptitle("GIMBAL Fig. 15: full search vs early exit, with the exact optimum")
    return save_figure(fig, out_dir, "gimbal_fig15")


def _improvements(
    rows: Sequence[Mapping[str, Any]],
    out_dir: Path,
    variants: Sequence[str],
    paper: Mapping[str, Mapping[str, float]],
    stem: str,
    title: str,
) -> list[Path]:
    """Grouped bars per base scheduler; the paper's values as black ticks on their bars."""
    fig = new_figure(8, 4)
    ax = fig.subplots()
    bases = list(dict.fromkeys(r["base"] for r in rows))
    width = 0.8 / len(variants)
    label: str | None = "paper"
    for k, variant in enumerate(variants):
        xs = [i + (k - (len(variants) - 1) / 2) * width for i in range(len(bases))]
        ax.bar(xs, [improvement(rows, b, variant) for b in bases], width, label=VARIANT_LABELS[variant])
        marks = [(x, paper[b][variant]) for x, b in zip(xs, bases, strict=True) if variant in paper.get(b, {})]
        if marks:
            ax.scatter(*zip(*marks, strict=True), marker="_", s=400, color="black", zorder=3, label=label)
            label = None
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_xticks(range(len(bases)), [METRIC_LABELS[b] for b in bases])
    ax.set(ylabel="improvement over the base scheduler (x)", title=title)
    ax.legend(fontsize=8)
    workload = rows[0]["workload"] if rows else ""
    ax.set_xlabel(f"workload: {workload}, {rows[0]['gpus'] if rows else 0} GPUs")
    return save_figure(fig, out_dir, stem)


def draw_fig12(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    title = "GIMBAL Fig. 12: ablation (unequal packing, LISS, LGRR) and the exact calibration"
    paper = {b: dict(zip(("unequal", "liss", "gimbal"), v, strict=True)) for b, v in PAPER_FIG12.items()}
    return _improvements(rows, out_dir, ("unequal", "liss", "gimbal", "exact"), paper, "gimbal_fig12", title)


def draw_fig8(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    title = "GIMBAL Fig. 8: base schedulers + GIMBAL, and + the exact calibration"
    paper = {b: {"gimbal": v} for b, v in PAPER_FIG8.items()}
    return _improvements(rows, out_dir, ("gimbal", "exact"), paper, "gimbal_fig8", title)
