"""Figures of the GIMBAL reproductions: pure functions of the stored rows, PNG and PDF each.

Every figure puts the exact calibration optimum beside GIMBAL, so it shows how much of the
possible gain the greedy search reaches. matplotlib is imported when a figure is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.calibration.simulate import improvement
from packgap.analysis.plotting import BLACK, GREY, color, legend, new_figure, panels, paper_marker, save_figure

VARIANT_LABELS = {
    "unequal": "+ unequal packing",
    "liss": "+ LISS",
    "aggressive": "aggressive packing, no calibration",
    "gimbal": "+ LGRR (GIMBAL)",
    "exact": "exact calibration",
}
#: Improvement over the base scheduler: Fig. 12 (unequal, + LISS, + LGRR) and Fig. 8 (+ GIMBAL).
PAPER_FIG12 = {"lucid": (1.05, 1.18, 1.28), "gandiva": (1.04, 1.11, 1.13), "gavel": (1.01, 1.10, 1.11)}
#: Fig. 8 per trace (section 7.2: Gandiva's deadlines met 110 vs 90 and 233 vs 177, Gavel's
#: makespan 4.5 h vs 4.05 h and 17.6 h vs 15.9 h).
PAPER_FIG8 = {
    "philly": {"lucid": 1.28, "gandiva": 110 / 90, "gavel": 4.5 / 4.05},
    "alibaba": {"lucid": 1.26, "gandiva": 233 / 177, "gavel": 17.6 / 15.9},
}
METRIC_LABELS = {"lucid": "mean JCT\n(Lucid)", "gandiva": "deadlines met\n(Gandiva)", "gavel": "makespan\n(Gavel)"}
#: Line style per Table 3 set in Fig. 13 (colours name the method).
SET_STYLES = {"JC2": "o-", "JC5": "s--", "JC7": "^:"}


def draw_fig13(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    from matplotlib.lines import Line2D

    fig = new_figure(11, 4.2)
    left, right = panels(fig, 1, 2)
    for name in dict.fromkeys(r["job_set"] for r in rows):
        mine = sorted((r for r in rows if r["job_set"] == name), key=lambda r: r["granularity"])
        g = [r["granularity"] for r in mine]
        style = SET_STYLES.get(name, "o-")
        left.plot(g, [r["gimbal_search_s"] for r in mine], style, color=color("gimbal"), label=f"{name}")
        right.plot(g, [r["gimbal_jct_with_search_s"] / 3600 for r in mine], style, color=color("gimbal"))
        right.plot(g, [r["exact_jct_s"] / 3600 for r in mine], style, color=color("exact"))
        right.plot(g, [r["continuous_bound_s"] / 3600 for r in mine], style, color=GREY, lw=1, ms=3)
    for ax in (left, right):
        ax.set_xticks(sorted({r["granularity"] for r in rows}))
    left.set(xlabel="LGRR granularity (%)", ylabel="GIMBAL search time (s)", title="(a) time to search")
    right.set(xlabel="LGRR granularity (%)", ylabel="mean JCT of the set (h)", title="(b) mean JCT")
    legend(left, title="job set")
    methods = [
        Line2D([], [], color=color("gimbal"), label="GIMBAL, search included"),
        Line2D([], [], color=color("exact"), label="exact grid optimum"),
        Line2D([], [], color=GREY, label="continuous-share bound"),
    ]
    right.legend(handles=methods, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=8)
    fig.suptitle("GIMBAL Fig. 13: LGRR granularity vs search time and mean JCT (Table 3 sets)")
    return save_figure(fig, out_dir, "gimbal_fig13")


def draw_fig15(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    fig = new_figure(11, 4.2)
    left, right = panels(fig, 1, 2)
    names = [r["job_set"] for r in rows]
    x = range(len(rows))
    bars = (("full search", "full"), ("early exit", "gimbal"))
    for k, (label, key) in enumerate(bars):
        xs = [i + (k - 0.5) * 0.4 for i in x]
        left.bar(xs, [r[f"{key}_search_s"] for r in rows], 0.4, color=color(label), label=label)
    for k, (label, key) in enumerate((*bars, ("exact grid optimum", "exact"))):
        xs = [i + (k - 1) * 0.27 for i in x]
        right.bar(xs, [r[f"{key}_jct_s"] / 3600 for r in rows], 0.27, color=color(label), label=label)
    for ax in (left, right):
        ax.set_xticks(list(x), names)
        ax.set_xlabel("job combination (Table 3)")
    left.axhline(480, color=BLACK, ls="--", lw=1, label="paper: full search (480 s)")
    left.axhline(250, color=BLACK, ls=":", lw=1, label="paper: early exit (250 s)")
    left.set(ylabel="search time (s)", title="(a) search duration")
    right.set(ylabel="mean JCT of the set (h)", title="(b) mean JCT of the set")
    for ax in (left, right):
        legend(ax, outside=True)
    fig.suptitle("GIMBAL Fig. 15: full search vs early exit, with the exact optimum")
    return save_figure(fig, out_dir, "gimbal_fig15")


def _improvements(
    ax: Any,
    rows: Sequence[Mapping[str, Any]],
    variants: Sequence[str],
    paper: Mapping[str, Mapping[str, float]],
    title: str,
) -> None:
    """Grouped bars per base scheduler on ``ax``; the paper's values as black diamonds on their bars."""
    present = {r["variant"] for r in rows}
    variants = [v for v in variants if v in present]
    bases = list(dict.fromkeys(r["base"] for r in rows))
    width = 0.8 / len(variants)
    label: str | None = "paper"
    for k, variant in enumerate(variants):
        xs = [i + (k - (len(variants) - 1) / 2) * width for i in range(len(bases))]
        heights = [improvement(rows, b, variant) for b in bases]
        ax.bar(xs, heights, width, color=color(variant), label=VARIANT_LABELS[variant])
        marks = [(x, paper[b][variant]) for x, b in zip(xs, bases, strict=True) if variant in paper.get(b, {})]
        if marks:
            paper_marker(ax, *zip(*marks, strict=True), label=label)
            label = None
    ax.axhline(1.0, color=BLACK, lw=0.8)
    ax.set_xticks(range(len(bases)), [METRIC_LABELS[b] for b in bases])
    ax.set(ylabel="improvement over the base scheduler (x)", title=title)
    workload = rows[0]["workload"] if rows else ""
    jobs = int(rows[0].get("jobs", 0)) if rows else 0
    gpus = rows[0]["gpus"] if rows else 0
    ax.set_xlabel(f"base scheduler and its metric\n({workload} workload, {jobs} jobs, {gpus} GPUs; n = 1 run)")


def draw_fig12(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    paper = {b: dict(zip(("unequal", "liss", "gimbal"), v, strict=True)) for b, v in PAPER_FIG12.items()}
    fig = new_figure(9, 4)
    (ax,) = panels(fig)
    title = "GIMBAL Fig. 12: ablation, over each base scheduler"
    _improvements(ax, rows, ("unequal", "liss", "gimbal", "exact"), paper, title)
    legend(ax, outside=True)
    return save_figure(fig, out_dir, "gimbal_fig12")


def draw_fig8(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    traces = list(dict.fromkeys(r["trace"] for r in rows))
    fig = new_figure(13, 4.4)
    axes = panels(fig, 1, len(traces))
    for k, (ax, trace) in enumerate(zip(axes, traces, strict=True)):
        paper = {b: {"gimbal": v} for b, v in PAPER_FIG8[trace].items()}
        mine = [r for r in rows if r["trace"] == trace]
        _improvements(ax, mine, ("aggressive", "gimbal", "exact"), paper, f"({chr(97 + k)}) {trace.capitalize()}")
    legend(axes[-1], outside=True)
    fig.suptitle("GIMBAL Fig. 8: end to end, over each base scheduler")
    return save_figure(fig, out_dir, "gimbal_fig8")
