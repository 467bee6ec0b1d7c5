"""Figures of the CUCKOO reproductions: pure functions of the computed rows (PNG and PDF).

Drawn on matplotlib's Agg canvas without pyplot (no display, no global state); matplotlib is
imported when a figure is drawn. Paper values appear as black markers beside ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import (
    BLACK,
    GREEN,
    RED,
    color,
    legend,
    log_axis,
    new_figure,
    panels,
    paper_marker,
    save_figure,
    seed_bars,
    seeds_note,
)

Rows = Sequence[Mapping[str, Any]]
#: Systems in the order the figures show them.
ONLINE_ORDER = (
    "CUCKOO",
    "Muri-P",
    "Blossom",
    "None",
    "FIFO",
    "EDF",
    "CUCKOO-Homo",
    "Muri-Hetero",
    "Muri",
    "Muri (released)",
)
DIRECTION_COLORS = {"helps": GREEN, "tie": "#DDDDDD", "hurts": RED}
#: Readable names of the factors varied by the direction study (``direction.py`` keys).
FACTOR_NAMES = {
    "jobs": "jobs",
    "duration_median_s": "median duration (s)",
    "arrival_scale": "arrival interval scale (x)",
    "gpu_mix": "GPU mix",
    "models": "models",
    "demands": "GPU demands",
    "interference": "interference (x)",
    "ground_truth": "ground-truth estimator",
}


def factor_name(factor: str) -> str:
    return FACTOR_NAMES.get(factor, factor.replace("_", " "))


def draw_online(rows: Rows, out_dir: Path) -> list[Path]:
    """Tables 9-14 in one figure: Norm. JCT, deadline satisfaction and mean JCT per system,
    seeds as error bars, the paper's values as markers, the region below the best proven bound
    shaded (no schedule reaches it)."""
    import numpy as np

    from packgap.paper_figures.cuckoo.tables9_14 import PAPER_ONLINE

    paper = {s: v for table in PAPER_ONLINE.values() for s, v in table.items()}
    runs = [r for r in rows if r["kind"] == "run"]
    seeds = sorted({r["seed"] for r in runs})
    cuckoo = {r["seed"]: r for r in runs if r["system"] == "CUCKOO"}

    def per_seed(system: str, metric: str, norm: bool = False) -> np.ndarray:
        mine = {r["seed"]: r[metric] for r in runs if r["system"] == system}
        return np.array([mine[s] / (cuckoo[s][metric] if norm else 1.0) for s in seeds])

    fig = new_figure(15.0, 4.6)
    axes = panels(fig, 1, 3)
    xs = np.arange(len(ONLINE_ORDER))
    shown = (
        ("mean_jct_s", True, 0, "Norm. JCT (CUCKOO = 1)"),
        ("deadline_satisfaction", False, 1, "deadline satisfaction (-)"),
    )
    for (metric, norm, k, label), ax in zip(shown, axes[:2], strict=True):
        means, spread = seed_bars([list(per_seed(s, metric, norm)) for s in ONLINE_ORDER])
        colours = [color(s) for s in ONLINE_ORDER]
        ax.bar(xs, means, yerr=spread, color=colours, capsize=3, label=f"ours ({seeds_note(len(seeds))})")
        paper_marker(ax, xs, [paper[s][k] for s in ONLINE_ORDER])
        ax.set(ylabel=label)
    means, spread = seed_bars([[v / 3600 for v in per_seed(s, "mean_jct_s")] for s in ONLINE_ORDER])
    axes[2].bar(xs, means, yerr=spread, color=[color(s) for s in ONLINE_ORDER], capsize=3, label="ours")
    best = (
        np.mean([max(r["mean_jct_s"] for r in rows if r["kind"] == "reference" and r["seed"] == s) for s in seeds])
        / 3600
    )
    span = axes[2].axhspan(0, best, color="#DDDDDD", zorder=0.5, label="below the best proven bound (no schedule)")
    axes[2].set(ylabel="mean JCT (h)")
    for ax in axes:
        ax.set_xticks(xs, ONLINE_ORDER, rotation=45, ha="right", fontsize=8)
        ax.set_xlabel("system")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend([*handles, span], [*labels, span.get_label()], loc="outside lower center", ncols=3, fontsize=8)
    jobs = runs[0]["jobs"]
    fig.suptitle(f"CUCKOO Tables 9-14: online, {jobs} jobs of the section 4.1 workload (Table 7 cluster, 60 s rounds)")
    return save_figure(fig, out_dir, "cuckoo_online")


def _ratios(rows: Rows) -> dict[tuple[Any, ...], list[float]]:
    """None / DAB mean JCT per seed, by (base, mode, factor, value)."""
    runs = {
        (r["base"], r["mode"], r["factor"], r["value"], r["seed"], r["pipeline"]): r
        for r in rows
        if r["kind"] == "sweep"
    }
    out: dict[tuple[Any, ...], list[float]] = {}
    for (*cell, seed, pipeline), r in runs.items():
        if pipeline == "dab+mchp":
            none = runs[(*cell, seed, "none+mchp")]
            out.setdefault(tuple(cell), []).append(none["mean_jct_s"] / r["mean_jct_s"])
    return out


def _draw_queue(summary: Rows, out_dir: Path) -> list[Path]:
    """None / DAB against how many jobs wait without packing (online, time mean): packing can
    only pay where jobs queue."""
    from matplotlib.ticker import FormatStrFormatter

    fig = new_figure(8.0, 4.0)
    (ax,) = panels(fig)
    markers = {("issue", "offline"): "o", ("issue", "online"): "s", ("paper", "offline"): "^", ("paper", "online"): "D"}
    for (base, mode), marker in markers.items():
        mine = [s for s in summary if (s["base"], s["mode"]) == (base, mode)]
        ys = [s["none_over_dab"] for s in mine]
        ax.scatter([s["queue"] for s in mine], ys, marker=marker, alpha=0.75, label=f"{base} base, {mode}")
    ax.axhline(1.0, color=BLACK, lw=0.8)
    ax.axhline(1.79, color=BLACK, ls="--", lw=0.8, label="paper: None 1.79x DAB")
    log_axis(ax, axis="x", scale="symlog", linthresh=1.0)
    ax.set_xlim(left=0.0)
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.set(
        xlabel="jobs waiting without packing (online time mean, -)", ylabel="None / DAB mean JCT (>1: packing helps)"
    )
    ax.set_title("CUCKOO Table 12 direction vs queue length (every setting)", fontsize=10)
    legend(ax, outside=True)
    return save_figure(fig, out_dir, "cuckoo_direction_queue")


def _draw_factors(rows: Rows, out_dir: Path) -> list[Path]:
    """One panel per factor: None / DAB per value (bars, seeds as error bars); the jobs factor
    as lines over the job count, each base's own size included."""
    import numpy as np

    ratios = _ratios(rows)
    jobs = {(r["base"], r["factor"], r["value"]): r["jobs"] for r in rows if r["kind"] == "sweep"}
    factors = list(dict.fromkeys(cell[2] for cell in ratios if cell[2] != "base"))
    fig = new_figure(16.0, 7.5)
    axes = panels(fig, 2, (len(factors) + 1) // 2)
    series = (("issue", "offline"), ("issue", "online"), ("paper", "offline"), ("paper", "online"))
    for ax, factor in zip(axes, factors, strict=False):
        values = list(dict.fromkeys(cell[3] for cell in ratios if cell[2] == factor))
        for k, (base, mode) in enumerate(series):
            if factor == "jobs":
                cells = sorted(
                    (jobs[base, f, v], d)
                    for (b, m, f, v), d in ratios.items()
                    if (b, m) == (base, mode) and f in ("base", "jobs")
                )
                ys, spread = seed_bars([d for _, d in cells])
                ax.errorbar([n for n, _ in cells], ys, yerr=spread, marker="o", capsize=2, label=f"{base}, {mode}")
                continue
            data = [ratios.get((base, mode, "base", "-"), [])] + [
                ratios.get((base, mode, factor, v), []) for v in values
            ]
            xs = np.arange(len(data)) + (k - 1.5) * 0.2
            means, spread = seed_bars([d or [np.nan] for d in data])
            ax.bar(xs, means, 0.2, yerr=spread, capsize=2, label=f"{base}, {mode}")
        if factor == "jobs":
            sizes = sorted({n for (b, f, _), n in jobs.items() if f in ("base", "jobs")})
            log_axis(ax, sizes)
            ax.set(xlabel="jobs (-)")
            ax.tick_params(axis="x", labelsize=7)
        else:
            labels = ["base", *(str(v) for v in values)]
            ax.set_xticks(range(len(labels)), labels, fontsize=7, rotation=20)
            ax.set_xlabel("value (base: the base workload's)")
        ax.axhline(1.0, color=BLACK, lw=0.8)
        ax.axhline(1.79, color=BLACK, ls="--", lw=0.8)
        ax.set(title=factor_name(factor), ylabel="None / DAB mean JCT (-)")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=4, fontsize=8)
    for ax in axes[len(factors) :]:
        ax.set_visible(False)
    seeds = seeds_note(min(len(d) for d in ratios.values()))
    fig.suptitle(f"CUCKOO Table 12: one factor at a time; > 1: the paper's direction (dashed: its 1.79); {seeds}")
    return save_figure(fig, out_dir, "cuckoo_direction_factors")


def _draw_objectives(summary: Rows, out_dir: Path) -> list[Path]:
    import numpy as np
    from matplotlib.colors import ListedColormap

    shown = (("issue", "offline"), ("paper", "online"))
    fig = new_figure(13.0, 7.5)
    codes = {"hurts": 0, "tie": 1, "helps": 2}
    for ax, (base, mode) in zip(panels(fig, 1, 2), shown, strict=True):
        mine = [s for s in summary if (s["base"], s["mode"]) == (base, mode)]
        if not mine:
            continue
        names = list(mine[0]["direction"])
        grid = np.array([[codes[s["direction"][n]] for n in names] for s in mine])
        ax.imshow(grid, cmap=ListedColormap([DIRECTION_COLORS[k] for k in codes]), vmin=0, vmax=2, aspect="auto")
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
        ax.set_yticks(range(len(mine)), [f"{factor_name(s['factor'])} = {s['value']}" for s in mine], fontsize=7)
        ax.set(xlabel="objective scored (eq. 10: alpha per s of mean JCT, beta = 1)", title=f"{base} base, {mode}")
        ax.set_ylabel("setting varied (factor = value)")
        ax.grid(False)
    fig.suptitle("CUCKOO Table 12 direction by objective: green packing helps, red hurts, grey within 1 %")
    return save_figure(fig, out_dir, "cuckoo_direction_objectives")


def _draw_muri(rows: Rows, out_dir: Path) -> list[Path]:
    muri = [r for r in rows if r["kind"] == "muri" and r["traces"]]
    if not muri:
        return []
    fig = new_figure(9.0, 5.0)
    (ax,) = panels(fig)
    labels = [f"{r['scenario']}: {r['method']}" for r in muri]
    ys = range(len(muri))
    ax.barh(ys, [r["late_jobs"] for r in muri], color=RED, alpha=0.4, label="late jobs")
    ax.barh(ys, [r.get("doomed", 0.0) for r in muri], color=RED, label="doomed at arrival (no preemption)")
    ax.set_yticks(list(ys), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set(xlabel="jobs (-)", ylabel="scenario: method", title="Muri trace, 40 jobs on V100:32, seed 1")
    legend(ax, outside=True)
    return save_figure(fig, out_dir, "cuckoo_muri_late")


def draw_direction(rows: Rows, out_dir: Path) -> list[Path]:
    """Queue length vs None / DAB, one panel per factor, the direction per objective, and the
    Muri-trace misses (when the trace was there)."""
    from packgap.paper_figures.cuckoo.direction import direction_summary

    summary = direction_summary(rows)
    paths = _draw_queue(summary, out_dir) + _draw_factors(rows, out_dir) + _draw_objectives(summary, out_dir)
    return paths + _draw_muri(rows, out_dir)
