"""Figures of PAL's Synergy section (:mod:`packgap.paper_figures.pal.synergy`): Figs. 14, 16
and 17 in one figure (average JCT against the load per scheduler, and PAL's gain over Tiresias with
the paper's numbers), Fig. 15 (GPUs in use over time) and Fig. 19 (wait per job)."""

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
    seed_bars,
    seeds_note,
)
from packgap.paper_figures.pal.plots import LABELS
from packgap.paper_figures.pal.synergy import (
    PAL,
    PAPER_FIFO,
    PAPER_SATURATION_S,
    PAPER_UP_TO,
    ROUND,
    SERIES_LOADS,
    SERIES_ROUNDS,
    TIRESIAS,
    gain,
    waiting_load,
)

SCHEDULERS = {"fifo": "FIFO (Fig. 14)", "las": "LAS (Fig. 16)", "srtf": "SRTF (Fig. 17)"}


def _present(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in rows if "missing" not in r]


def _sample(rows: Sequence[Mapping[str, Any]]) -> str:
    """The size every title states: cluster, jobs measured per run, seeds."""
    gpus, jobs = rows[0]["gpus"], int(rows[0]["jobs"])
    return f"{gpus} GPUs, {jobs:,} jobs measured per run, {seeds_note(len({r['seed'] for r in rows}))}"


def draw_jct(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    rows = _present(rows)
    if not rows:
        return []
    fig = new_figure(15.0, 7.6)
    axes = panels(fig, 2, 3)
    for k, (scheduler, title) in enumerate(SCHEDULERS.items()):
        jct, gains = axes[k], axes[k + 3]
        mine = [r for r in rows if r["scheduler"] == scheduler]
        loads = sorted({r["jobs_per_hour"] for r in mine})
        for policy in dict.fromkeys(r["policy"] for r in mine):
            runs = [
                [r["mean_jct_s"] / 3600 for r in mine if r["jobs_per_hour"] == x and r["policy"] == policy]
                for x in loads
            ]
            means, spread = seed_bars(runs)
            jct.errorbar(loads, means, yerr=spread, fmt="o-", color=color(policy), capsize=3, label=LABELS[policy])
        jct.set(xlabel="job load (jobs/hour per 256 GPUs)", ylabel="average JCT (h)", title=title)
        for metric, style, what in (("mean_jct_s", "o-", "all jobs"), ("multi_jct_s", "s--", "multi-GPU jobs")):
            if scheduler != "fifo" and metric == "multi_jct_s":
                continue
            ours = [gain(rows, PAL, metric, scheduler, x) for x in loads]
            gains.plot(loads, ours, style, color=color(PAL), label=f"PAL vs Tiresias, {what}")
        if scheduler == "fifo":
            xs = sorted(PAPER_FIFO)
            paper_marker(gains, xs, [PAPER_FIFO[x][0] for x in xs], label="paper, all jobs")
            paper_marker(gains, xs, [PAPER_FIFO[x][1] for x in xs], marker="s", label="paper, multi-GPU jobs")
        else:
            top = PAPER_UP_TO[scheduler][1]
            gains.axhline(top, color=BLACK, ls=":", label=f"paper: up to {top:g} %")
        gains.axhline(0.0, color=BLACK, lw=0.6)
        gains.set(xlabel="job load (jobs/hour per 256 GPUs)", ylabel="average JCT gain over Tiresias (%)")
        legend(gains, outside=True)
    figure_legend(fig, axes[0], columns=5)
    fig.suptitle(f"PAL Figs. 14, 16, 17: Synergy-like traces, average JCT vs job load ({_sample(rows)})")
    return save_figure(fig, out_dir, "pal_fig14_16_17")


def draw_gpus_in_use(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    rows = [r for r in _present(rows) if "gpus_in_use" in r]
    if not rows:
        return []
    loads = [x for x in SERIES_LOADS if any(r["jobs_per_hour"] == x for r in rows)]
    fig = new_figure(12.8, 4.2)
    axes = panels(fig, 1, len(loads))
    hour = SERIES_ROUNDS * ROUND
    for ax, load in zip(axes, loads, strict=True):
        for r in (r for r in rows if r["jobs_per_hour"] == load and r["seed"] == rows[0]["seed"]):
            times = [i * hour / 1e6 for i in range(len(r["gpus_in_use"]))]
            ax.plot(times, r["gpus_in_use"], lw=0.8, color=color(r["policy"]), label=LABELS[r["policy"]])
        if load == SERIES_LOADS[1]:
            ax.axvline(PAPER_SATURATION_S / 1e6, color=BLACK, ls=":", label="paper: saturated from here")
        ax.set(xlabel="simulated time ($10^6$ s)", ylabel=f"GPUs in use (of {rows[0]['gpus']})")
        ax.set_title(f"FIFO, {load:g} jobs/hour per 256 GPUs")
        legend(ax, outside=True)
    fig.suptitle(
        f"PAL Fig. 15: GPUs in use, hourly mean (Synergy-like traces, {_sample(rows)}, seed {rows[0]['seed']})"
    )
    return save_figure(fig, out_dir, "pal_fig15")


def draw_waits(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    rows = [r for r in _present(rows) if "wait_s" in r]
    load = waiting_load(rows)
    rows = [r for r in rows if r["jobs_per_hour"] == load]
    if not rows:
        return []
    seed = rows[0]["seed"]
    fig = new_figure(15.0, 4.2)
    axes = panels(fig, 1, 3)
    for ax, scheduler in zip(axes, ("las", "srtf", "fifo"), strict=True):
        for policy in (TIRESIAS, PAL):
            found = [r for r in rows if (r["scheduler"], r["policy"], r["seed"]) == (scheduler, policy, seed)]
            for r in found:
                waits = [w / 3600 for w in r["wait_s"]]
                jobs = range(r["first_job"], r["first_job"] + len(waits))
                ax.plot(jobs, waits, lw=0.8, color=color(policy), label=LABELS[policy])
        ax.set(xlabel="job ID (submit order)", ylabel="wait time (h)", title=scheduler.upper())
        legend(ax)
    fig.suptitle(
        f"PAL Fig. 19: wait per job at {load:g} jobs/hour per 256 GPUs, the lowest load where FIFO waits average 1 h "
        f"(paper: 8)\n{_sample(rows)}, seed {seed}"
    )
    return save_figure(fig, out_dir, "pal_fig19")


def draw_synergy(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    return draw_jct(rows, out_dir) + draw_gpus_in_use(rows, out_dir) + draw_waits(rows, out_dir)
