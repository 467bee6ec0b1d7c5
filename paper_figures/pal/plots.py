"""Figures of the PAL reproductions: pure functions of the computed rows, PNG and PDF each.

matplotlib is imported when a figure is drawn (``Figure`` on the Agg canvas, no pyplot).
Rows that say the traces were missing draw nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import (
    BLACK,
    GREY,
    band_note,
    band_shows,
    color,
    figure_legend,
    legend,
    log_axis,
    new_figure,
    panels,
    paper_marker,
    save_figure,
)
from packgap.result import certified_gap, primal_gap

#: Tiresias' placement (section IV-A1), the paper's reference in Fig. 11 and 13.
BASELINE = "packed-sticky"
LABELS = {
    "pal": "PAL",
    "pm-first": "PM-First",
    "packed-sticky": "Tiresias (Packed-Sticky)",
    "packed-non-sticky": "Gandiva (Packed-Non-Sticky)",
    "random-sticky": "Random-Sticky",
    "random-non-sticky": "Random-Non-Sticky",
}
#: The paper's geomean average JCT relative to Tiresias: Fig. 11 (section V-B) and Fig. 13
#: at L_across = 1.0 and 3.0 (section V-B1).
PAPER_RATIO = {"pal": 0.57, "pm-first": 0.60}
PAPER_FIG13_RATIO = {"pal": ((1.0, 0.70), (3.0, 0.80)), "pm-first": ((1.0, 0.70), (3.0, 0.91))}


def geomean(values: Iterable[float]) -> float:
    logs = [math.log(v) for v in values]
    return math.exp(sum(logs) / len(logs))


def ratios(rows: Sequence[Mapping[str, Any]], policy: str, metric: str, **where: Any) -> dict[int, float]:
    """``metric`` of ``policy`` over Tiresias' per workload, among the rows matching ``where``."""
    kept = [r for r in rows if all(r.get(k) == v for k, v in where.items())]
    base = {r["workload"]: r[metric] for r in kept if r["policy"] == BASELINE}
    return {r["workload"]: r[metric] / base[r["workload"]] for r in kept if r["policy"] == policy}


def primal(rows: Sequence[Mapping[str, Any]]) -> list[float]:
    """Per-round gaps to the exact objective (rounds without one left out)."""
    gaps = (primal_gap(o, e) for r in rows for o, e in zip(r["objective"], r["exact"], strict=True))
    return [g for g in gaps if g is not None]


def certified(rows: Sequence[Mapping[str, Any]]) -> list[float]:
    """Per-round gaps to the proven bound: the true gap lies between :func:`primal` and this."""
    gaps = (certified_gap(o, b) for r in rows for o, b in zip(r["objective"], r["bound"], strict=True))
    return [g for g in gaps if g is not None]


def _figure(width: float, height: float, columns: int, rows: int = 1) -> tuple[Any, Any]:
    fig = new_figure(width, height)
    return fig, panels(fig, rows, columns)


def _present(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in rows if "missing" not in r]


def _panels(rows: Sequence[Mapping[str, Any]], key: str, height: float = 4.0) -> tuple[Any, list[tuple[Any, Any]]]:
    """A figure with one 6.4 in wide panel per value of ``key``: (figure, [(axes, value)])."""
    values = list(dict.fromkeys(r[key] for r in rows))
    fig, axes = _figure(max(6.4 * len(values), 9.0), height, len(values))
    return fig, list(zip(axes, values, strict=True))


def draw_fig11(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    rows = _present(rows)
    if not rows:
        return []
    fig, panels = _panels(rows, "readings", 4.8)
    width = 0.8 / len(LABELS)
    for ax, reading in panels:
        workloads = sorted({r["workload"] for r in rows})
        for k, policy in enumerate(LABELS):
            values = ratios(rows, policy, "mean_jct_s", readings=reading)
            heights = [values[w] for w in workloads] + [geomean(values.values())]
            xs = [i + (k - (len(LABELS) - 1) / 2) * width for i in range(len(heights))]
            ax.bar(xs, heights, width, label=LABELS[policy], color=color(policy))
            if policy in PAPER_RATIO:
                label = "paper geomean" if policy == "pal" else None
                paper_marker(ax, [xs[-1]], [PAPER_RATIO[policy]], label=label)
        ax.set_xticks(range(len(workloads) + 1), [*map(str, workloads), "geomean"])
        ax.set(xlabel="Sia-Philly workload", ylabel="average JCT / Tiresias' (x)", title=f"{reading} readings")
        ax.axhline(1.0, color=BLACK, lw=0.6)
    figure_legend(fig, panels[0][0], columns=4)
    fig.suptitle("PAL Fig. 11: average JCT normalised to Tiresias (64 GPUs, FIFO, $L_\\mathrm{across}$ 1.7)")
    return save_figure(fig, out_dir, "pal_fig11")


def draw_fig13(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    rows = _present(rows)
    if not rows:
        return []
    fig, panels = _panels(rows, "readings")
    penalties = sorted({r["l_across"] for r in rows})
    for ax, reading in panels:
        for policy in LABELS:
            geo = [
                geomean(ratios(rows, policy, "mean_jct_s", l_across=p, readings=reading).values()) for p in penalties
            ]
            ax.plot(penalties, geo, "o-", color=color(policy), label=LABELS[policy])
            if policy in PAPER_FIG13_RATIO and reading == "paper":
                xs, ys = zip(*PAPER_FIG13_RATIO[policy], strict=True)
                size = 260 if policy == "pal" else 110  # both are 0.70 at L_across 1.0: PAL's star rings PM-First's
                ax.scatter(xs, ys, marker="*", s=size, color=color(policy), edgecolor=BLACK, zorder=3)
        ax.set(xlabel=r"inter-node locality penalty $L_\mathrm{across}$ (x)")
        ax.set(ylabel="geomean average JCT / Tiresias' (x)")
        ax.set_title(f"{reading} readings" + (" (stars: paper)" if reading == "paper" else ""))
    figure_legend(fig, panels[0][0], columns=3)
    fig.suptitle("PAL Fig. 13: average JCT as the locality penalty varies (Sia-Philly, 64 GPUs)")
    return save_figure(fig, out_dir, "pal_fig13")


def draw_fig12(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    rows = _present(rows)
    if not rows:
        return []
    fig, panels = _panels(rows, "workload")
    for ax, w in panels:
        for r in (r for r in rows if r["workload"] == w):
            waits = [s / 3600 for s in r["wait_s"]]
            ax.plot([int(j) for j in r["job"]], waits, lw=1, color=color(r["policy"]), label=LABELS[r["policy"]])
        ax.set(xlabel="job ID (submit order)", ylabel="wait time (h)", title=f"workload {w}")
        legend(ax, outside=True)
    fig.suptitle("PAL Fig. 12: wait times per job (Sia-Philly, 64 GPUs, FIFO)")
    return save_figure(fig, out_dir, "pal_fig12")


def draw_fig18(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    fig, (sizes, trace) = _figure(14.0, 4.2, 2)
    generated = [r for r in rows if r["setting"] == "generated"]
    synergy = [r for r in rows if r["setting"] == "synergy"]
    for policy in dict.fromkeys(r["policy"] for r in generated):
        mine = sorted((r for r in generated if r["policy"] == policy), key=lambda r: r["gpus"])
        gpus = [r["gpus"] for r in mine]
        mid = [sorted(r["place_s"])[len(r["place_s"]) // 2] for r in mine]
        spread = [[m - min(r["place_s"]) for m, r in zip(mid, mine, strict=True)]]
        spread.append([max(r["place_s"]) - m for m, r in zip(mid, mine, strict=True)])
        sizes.errorbar(
            gpus, mid, yerr=spread, fmt="o-", color=color(policy), capsize=3, label=f"{LABELS[policy]} per round"
        )
        bins = [sorted(r["bins_s"])[len(r["bins_s"]) // 2] for r in mine]
        sizes.plot(gpus, bins, "s--", color=color(policy), label=f"{LABELS[policy]} binning (once)")
    sizes.errorbar([256], [2.8], yerr=[[0.0], [1.2]], fmt="D", ms=6, color=BLACK, capsize=3, label="paper PAL, 256")
    sizes.set(ylabel="placement time (s; median, min-max)")
    log_axis(sizes, [r["gpus"] for r in generated])
    log_axis(sizes, axis="y")
    sizes.set(xlabel="cluster size (GPUs)", title="full generated rounds (jobs = GPUs / 3)")
    legend(sizes, outside=True)
    trace.boxplot([r["place_s"] for r in synergy], tick_labels=[LABELS[r["policy"]] for r in synergy])
    trace.axhline(2.8, color=BLACK, ls=":", label="paper: PAL median 2.8 s")
    log_axis(trace, axis="y")
    trace.set(xlabel="placement policy", ylabel="placement time per round (s)")
    trace.set_title("every round of a Synergy trace, 256 GPUs")
    legend(trace, outside=True)
    fig.suptitle("PAL Fig. 18: placement time per scheduling round vs cluster size")
    return save_figure(fig, out_dir, "pal_fig18")


def draw_round_gaps(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    rows = _present(rows)
    if not rows:
        return []
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    policies = list(dict.fromkeys(r["policy"] for r in rows))
    fig, axes = _figure(12.8, 4.0 * math.ceil((len(workloads) + 1) / 2), 2, math.ceil((len(workloads) + 1) / 2))
    shown, lows, highs = False, [], []
    for ax, w in zip(axes, workloads, strict=False):
        spans = []
        for r in (r for r in rows if r["workload"] == w):
            hours = [i * r["round_length_s"] / 3600 for i in r["round"]]
            low = [100 * (primal_gap(o, e) or math.nan) for o, e in zip(r["objective"], r["exact"], strict=True)]
            high = [100 * (certified_gap(o, b) or math.nan) for o, b in zip(r["objective"], r["bound"], strict=True)]
            ax.plot(hours, low, lw=0.8, color=color(r["policy"]), label=LABELS[r["policy"]], drawstyle="steps-post")
            spans.append((r["policy"], hours, low, high))
            lows += low
            highs += high
        for policy, hours, low, high in spans:
            if band_shows(ax, low, high):
                shown = True
                ax.fill_between(hours, low, high, color=color(policy), alpha=0.3, lw=0, step="post")
        ax.set(xlabel="simulated time (h)", ylabel="gap to the round optimum (%)", title=f"workload {w}")
        legend(ax, outside=True)
    summary = axes[len(workloads)]
    per_policy = [[100 * g for g in primal([r for r in rows if r["policy"] == p])] for p in policies]
    boxes = summary.boxplot(per_policy, patch_artist=True, medianprops={"color": BLACK})
    for box, policy in zip(boxes["boxes"], policies, strict=True):
        box.set(facecolor=color(policy), alpha=0.6)
    summary.set_xticks(range(1, len(policies) + 1), [LABELS[p] for p in policies], rotation=20, fontsize=7)
    which = "the workload" if len(workloads) == 1 else f"all {len(workloads)} workloads shown"
    rounds = min(len(g) for g in per_policy)
    summary.set(xlabel="placement policy", ylabel="per-round gap (%)", title=f"every round of {which} (n = {rounds})")
    for ax in axes[len(workloads) + 1 :]:
        ax.set_visible(False)
    band = "; shaded up to the certified bound" if shown else f"; {band_note(lows, highs)}"
    traces = "one Sia-Philly trace" if len(workloads) == 1 else f"{len(workloads)} Sia-Philly traces"
    fig.suptitle(f"PAL rounds along {traces} vs exact-blocks{band}")
    return save_figure(fig, out_dir, "pal_round_gaps")


def draw_testbed(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    from packgap.paper_figures.pal.table4 import PAPER_CLUSTER_H, PAPER_JCT_H, mean_jct_h

    rows = [r for r in _present(rows) if r["profiles"] == "Frontera"]
    if not rows:
        return []
    fig, (cdf, boxes) = _figure(12.8, 4.4, 2)
    penalties = sorted({r["l_across"] for r in rows})
    policies = list(dict.fromkeys(r["policy"] for r in rows))
    first = min(r["seed"] for r in rows)
    for penalty, style in zip(penalties, ("-", "--"), strict=False):
        for r in (r for r in rows if r["l_across"] == penalty and r["seed"] == first):
            hours = sorted(j / 3600 for j in r["jct_s"])
            share = [(i + 1) / len(hours) for i in range(len(hours))]
            label = f"{LABELS[r['policy']]}, $L_\\mathrm{{across}}$ {penalty:g}"
            cdf.step(hours, share, style, where="post", color=color(r["policy"]), label=label)
    log_axis(cdf)
    cdf.set(
        xlabel="job completion time (h)", ylabel="share of jobs", title=f"Fig. 9 (simulated): JCT CDF, seed {first}"
    )
    legend(cdf)
    groups = [(p, penalty) for penalty in penalties for p in policies]
    pooled = [[j / 3600 for r in rows if (r["policy"], r["l_across"]) == g for j in r["jct_s"]] for g in groups]
    fliers = {"markersize": 3, "markeredgecolor": GREY}
    drawn = boxes.boxplot(pooled, patch_artist=True, medianprops={"color": BLACK}, flierprops=fliers)
    for box, (policy, _) in zip(drawn["boxes"], groups, strict=True):
        box.set(facecolor=color(policy), alpha=0.6)
    xs = range(1, len(groups) + 1)
    means = [mean_jct_h(rows, p, penalty) for p, penalty in groups]
    boxes.scatter(xs, means, marker="o", s=40, color="white", edgecolor=BLACK, zorder=4, label="our avg JCT")
    paper_marker(boxes, xs, [PAPER_JCT_H[p] for p, _ in groups], label="paper avg JCT, simulation")
    paper_marker(boxes, xs, [PAPER_CLUSTER_H[p] for p, _ in groups], marker="v", label="paper avg JCT, testbed")
    labels = [f"{LABELS[p].split(' ')[0]}\n$L_\\mathrm{{across}}$ {penalty:g}" for p, penalty in groups]
    boxes.set_xticks(list(xs), labels)
    log_axis(boxes, axis="y")
    boxes.set(xlabel="placement policy", ylabel="job completion time (h)", title="Fig. 10 (simulated): JCT per job")
    legend(boxes, outside=True)
    seeds = len({r["seed"] for r in rows})
    fig.suptitle(f"PAL Figs. 9-10, Table IV: simulated Sia-Cluster trace (160 jobs, 64 GPUs, LAS; n = {seeds} seeds)")
    return save_figure(fig, out_dir, "pal_fig9_10")


def draw_summit(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    (row,) = rows
    fig, (by_time, by_size) = _figure(12.8, 4.0, 2)
    hours = [int(r.removeprefix("round-")) * row["round_length_s"] / 3600 for r in row["round"]]
    low = [100 * (primal_gap(o, e) or 0.0) for o, e in zip(row["objective"], row["exact"], strict=True)]
    high = [100 * (certified_gap(o, b) or math.nan) for o, b in zip(row["objective"], row["bound"], strict=True)]
    proven = [s == "optimal" for s in row["status"]]
    for ax, xs in ((by_time, hours), (by_size, row["round_jobs"])):
        for done, label, mark in ((True, "proven optimal", "o"), (False, "up to the certified bound", "^")):
            pick = [i for i, p in enumerate(proven) if p == done]
            if pick:
                ax.plot([xs[i] for i in pick], [low[i] for i in pick], mark, color=color("pal"), label=f"PAL, {label}")
                ax.vlines([xs[i] for i in pick], [low[i] for i in pick], [high[i] for i in pick], color=color("pal"))
        ax.set(ylabel="PAL's gap to the round optimum (%)")
        legend(ax, outside=True)
    by_time.set(xlabel="simulated time (h)", title="sampled rounds along the trace")
    log_axis(by_size)
    by_size.set(xlabel="jobs placed in the round", title="by round size")
    fig.suptitle(f"PAL on {row['gpus']:,} GPUs, {row['jobs']:,} Synergy jobs: sampled rounds vs exact-blocks")
    return save_figure(fig, out_dir, "pal_summit")
