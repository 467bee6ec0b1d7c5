"""Figures of GIMBAL's Table 2 and Figs. 9-11: pure functions of the stored rows, PNG and PDF each.

Every panel states its workload, its size and that each run is one run (n = 1: the end-to-end
runs are deterministic, the workload is one seeded assignment of models to trace jobs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import (
    BLACK,
    color,
    figure_legend,
    legend,
    new_figure,
    panels,
    paper_marker,
    save_figure,
)

#: Table 2: jobs and mean GPUs per job of each class.
PAPER_TABLE2 = {
    "philly": {"small": (43, 2.39), "medium": (86, 2.41), "large": (21, 4.85)},
    "alibaba": {"small": (112, 1.98), "medium": (132, 2.03), "large": (56, 3.54)},
}
#: Fig. 9 (a): Lucid's mean queuing time without GIMBAL over with it.
PAPER_FIG9 = {"philly": 1.87, "alibaba": 1.51}
LABELS = {"baseline": "without GIMBAL", "gimbal": "with GIMBAL", "exact": "exact calibration"}
STYLES = {"baseline": "-", "gimbal": "--", "exact": ":"}


def _traces(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    return list(dict.fromkeys(r["trace"] for r in rows))


def _about(rows: Sequence[Mapping[str, Any]], trace: str) -> str:
    row = next(r for r in rows if r["trace"] == trace)
    return f"{row['workload']}, {row['jobs']} jobs, 32 GPUs; n = 1 run"


def draw_table2(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    traces = _traces(rows)
    fig = new_figure(11, 4.2)
    left, right = panels(fig, 1, 2)
    label: str | None = "paper"
    for k, trace in enumerate(traces):
        mine = [r for r in rows if r["trace"] == trace]
        xs = [i + (k - (len(traces) - 1) / 2) * 0.35 for i in range(len(mine))]
        paper = [PAPER_TABLE2[trace][r["class"]] for r in mine]
        kind = mine[0]["workload"]
        left.bar(xs, [r["jobs"] for r in mine], 0.35, color=color("gimbal" if k else "baseline"), label=kind)
        right.bar(xs, [r["mean_gpus"] for r in mine], 0.35, color=color("gimbal" if k else "baseline"), label=kind)
        paper_marker(left, xs, [p[0] for p in paper], label=label)
        paper_marker(right, xs, [p[1] for p in paper], label=label)
        label = None
    classes = [r["class"] for r in rows if r["trace"] == traces[0]]
    for ax in (left, right):
        ax.set_xticks(range(len(classes)), classes)
        ax.set_xlabel("model class (section 7.1)")
    left.set(ylabel="jobs", title="(a) jobs per class")
    right.set(ylabel="mean GPUs per job", title="(b) GPUs per job")
    legend(right, outside=True)
    fig.suptitle("GIMBAL Table 2: the Philly (150 jobs) and Alibaba (300 jobs) workloads")
    return save_figure(fig, out_dir, "gimbal_table2")


def draw_fig9(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    traces = _traces(rows)
    fig = new_figure(14, 8.8)
    axes = panels(fig, 2, 1 + len(traces))
    bars = axes[0]
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    for k, variant in enumerate(variants):
        xs = [i + (k - (len(variants) - 1) / 2) * 0.25 for i in range(len(traces))]
        found = [next(r for r in rows if r["trace"] == t and r["variant"] == variant) for t in traces]
        bars.bar(xs, [r["mean_queuing_s"] / 60 for r in found], 0.25, color=color(variant), label=LABELS[variant])
        if variant == "gimbal":
            plain = [next(r for r in rows if r["trace"] == t and r["variant"] == "baseline") for t in traces]
            implied = [p["mean_queuing_s"] / 60 / PAPER_FIG9[t] for p, t in zip(plain, traces, strict=True)]
            paper_marker(bars, xs, implied, label="paper's ratio, from our baseline")
    bars.set_xticks(range(len(traces)), [t.capitalize() for t in traces])
    bars.set(xlabel="workload (n = 1 run each)", ylabel="mean queuing time (min)", title="(a) queuing, Lucid")
    legend(bars)
    for k, (ax, trace) in enumerate(zip(axes[1 : 1 + len(traces)], traces, strict=True)):
        for r in (r for r in rows if r["trace"] == trace):
            jct = [v / 3600 for v in r["jct_s"]]
            share = [(i + 1) / len(jct) for i in range(len(jct))]
            ax.step(
                jct, share, STYLES[r["variant"]], where="post", color=color(r["variant"]), label=LABELS[r["variant"]]
            )
        ax.set(xlabel="JCT (h)", ylabel="share of jobs (CDF)")
        ax.set_title(f"({chr(98 + k)}) {trace.capitalize()}: JCT distribution\n{_about(rows, trace)}", fontsize=9)
    for k, (ax, trace) in enumerate(zip(axes[1 + len(traces) : 1 + 2 * len(traces)], traces, strict=True)):
        _throughput(ax, rows, trace, f"({chr(98 + len(traces) + k)}) {trace.capitalize()}, throughput")
    axes[-1].remove()
    figure_legend(fig, axes[1 + len(traces)])
    fig.suptitle("GIMBAL Fig. 9: Lucid without and with GIMBAL")
    return save_figure(fig, out_dir, "gimbal_fig9")


def _throughput(ax: Any, rows: Sequence[Mapping[str, Any]], trace: str, title: str) -> None:
    for r in (r for r in rows if r["trace"] == trace):
        hours = [(i + 0.5) * r["bin_s"] / 3600 for i in range(len(r["throughput"]))]
        ax.plot(hours, r["throughput"], STYLES[r["variant"]], color=color(r["variant"]), label=LABELS[r["variant"]])
    bin_min = next(r["bin_s"] for r in rows if r["trace"] == trace) / 60
    ax.axhline(32, color=BLACK, lw=0.8, ls=":", label="32 GPUs, each running one job alone")
    ax.set(
        xlabel=f"time (h)\n({_about(rows, trace)})",
        ylabel=f"cluster throughput (solo GPUs, {bin_min:g} min mean)",
        title=title,
    )


def draw_fig10(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    from packgap.paper_figures.gimbal.endtoend import JOB_CLASSES

    traces = _traces(rows)
    fig = new_figure(12, 8)
    axes = panels(fig, 2, len(traces))
    for k, (ax, trace) in enumerate(zip(axes[: len(traces)], traces, strict=True)):
        mine = [r for r in rows if r["trace"] == trace]
        for m, r in enumerate(mine):
            xs = [i + (m - (len(mine) - 1) / 2) * 0.25 for i in range(len(JOB_CLASSES))]
            met = [r[f"{c}_met"] for c in JOB_CLASSES]
            ax.bar(xs, met, 0.25, color=color(r["variant"]), label=LABELS[r["variant"]])
        totals = [mine[0][f"{c}_jobs"] for c in JOB_CLASSES]
        ax.set_xticks(range(len(JOB_CLASSES)), [f"{c}\n(of {n})" for c, n in zip(JOB_CLASSES, totals, strict=True)])
        ax.set(xlabel=f"job class\n({_about(rows, trace)})", ylabel="jobs meeting their deadline")
        ax.set_title(f"({chr(97 + k)}) {trace.capitalize()}, Gandiva")
        legend(ax, outside=True)
    for k, (ax, trace) in enumerate(zip(axes[len(traces) :], traces, strict=True)):
        _throughput(ax, rows, trace, f"({chr(97 + len(traces) + k)}) {trace.capitalize()}, throughput")
        legend(ax, outside=True)
    fig.suptitle("GIMBAL Fig. 10: Gandiva without and with GIMBAL (deadlines)")
    return save_figure(fig, out_dir, "gimbal_fig10")


def draw_fig11(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    traces = _traces(rows)
    fig = new_figure(12, 4.2)
    axes = panels(fig, 1, len(traces))
    for k, (ax, trace) in enumerate(zip(axes, traces, strict=True)):
        _throughput(ax, rows, trace, f"({chr(97 + k)}) {trace.capitalize()}, Gavel")
        legend(ax, outside=True)
    fig.suptitle("GIMBAL Fig. 11: Gavel's cluster throughput without and with GIMBAL")
    return save_figure(fig, out_dir, "gimbal_fig11")
