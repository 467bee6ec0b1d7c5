"""Figures of the CUCKOO reproductions: pure functions of the computed rows (PNG and PDF).

Drawn on matplotlib's Agg canvas without pyplot (no display, no global state); matplotlib is
imported when a figure is drawn. Paper values appear as black markers beside ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import new_figure, save_figure

Rows = Sequence[Mapping[str, Any]]
#: Systems in the order the figures show them.
ONLINE_ORDER = ("CUCKOO", "Muri-P", "Blossom", "None", "FIFO", "EDF", "CUCKOO-Homo", "Muri-Hetero", "Muri")
DIRECTION_COLORS = {"helps": "tab:green", "tie": "0.8", "hurts": "tab:red"}


def draw_table4(rows: Rows, out_dir: Path) -> list[Path]:
    """Fig. 6 from Table 4's slots (resource time drawn from each slot's start) and the
    iteration times of AM, Muri-P and the two jobs run one after the other."""
    from packgap.analysis.packing.reproduce import iteration

    fig = new_figure(11.0, 4.0)
    timeline, bars = fig.subplots(1, 2, width_ratios=(2.2, 1))
    start = 0.0
    lanes = {"BERT (j1) GPU": 3, "BERT (j1) network": 2, "ResNet (j0) GPU": 1, "ResNet (j0) network": 0}
    for r in (r for r in rows if r["kind"] == "slot"):
        first = r["i"] == 2
        for job, lane in (("1", 3), ("0", 1)):
            legend = first and job == "1"
            forward, backward = r[f"f{job}"], r[f"b{job}"]
            timeline.barh(lane, forward, left=start, color="tab:blue", label="forward" if legend else None)
            timeline.barh(
                lane, backward, left=start + forward, color="tab:orange", label="backward" if legend else None
            )
            timeline.barh(
                lane - 1, r[f"c{job}"], left=start, color="tab:green", label="communication" if legend else None
            )
        timeline.axvline(start, color="0.5", lw=0.6, ls=":")
        timeline.text(start + r["R"] / 2, 3.55 + 0.25 * (r["i"] % 2), f"R{r['i']}={r['R']:g}", ha="center", fontsize=7)
        start += r["R"]
    timeline.set_yticks(list(lanes.values()), list(lanes))
    timeline.set(xlabel="time (ms)", ylim=(-0.6, 4.1), title="AM slots, lambda = 2 (Table 4, Fig. 6)")
    timeline.legend(fontsize=7, loc="lower left")
    cases = {
        "AM, BERT first": iteration(rows, "AM", "BERT first"),
        "AM, ResNet first": iteration(rows, "AM", "ResNet first"),
        "Muri-P, best order": iteration(rows, "Muri-P", "best order"),
        "AM, one after the other": iteration(rows, "AM", "ResNet alone") + iteration(rows, "AM", "BERT alone"),
    }
    bars.barh(list(cases), list(cases.values()), color=["tab:blue", "tab:blue", "tab:purple", "0.6"], label="ours")
    bars.plot([543.0], ["AM, BERT first"], "kx", ms=9, label="paper (543 ms)")
    bars.set(xlabel="one iteration of both jobs (ms)", title="Iteration time")
    bars.legend(fontsize=7)
    fig.suptitle("CUCKOO Table 4: interleaving ResNet and BERT of Table 3")
    return save_figure(fig, out_dir, "cuckoo_table4")


def draw_table6(rows: Rows, out_dir: Path) -> list[Path]:
    """Fig. 7's bipartite graph with Table 6's weights; MCHP's matching drawn bold."""
    fig = new_figure(6.4, 4.0)
    ax = fig.subplots()
    edges = [r for r in rows if r["kind"] == "edge"]
    groups = sorted({r["group"] for r in edges})
    slots = sorted({(r["gpu"], r["order"]) for r in edges})
    gy = {g: 2.5 - 1.5 * i for i, g in enumerate(groups)}
    sy = {s: 3.0 - i for i, s in enumerate(slots)}
    match = {(r["group"], r["gpu"], r["order"]) for r in rows if r["kind"] == "match"}
    for r in edges:
        y0, y1 = gy[r["group"]], sy[r["gpu"], r["order"]]
        bold = (r["group"], r["gpu"], r["order"]) in match
        ax.plot(
            [0, 1],
            [y0, y1],
            color="tab:red" if bold else "0.6",
            lw=3 if bold else 1,
            label="MCHP's matching" if bold and r["group"] == groups[0] else None,
        )
        at = 0.8 if r["group"] == groups[0] else 0.55
        ax.text(
            at,
            y0 + at * (y1 - y0),
            f"{r['weight']:g}",
            fontsize=8,
            ha="center",
            bbox={"fc": "w", "ec": "none", "pad": 0.5},
        )
    for g, y in gy.items():
        ax.text(-0.04, y, f"Group {g}", ha="right", va="center")
    for (x, n), y in sy.items():
        ax.text(1.04, y, f"GPU {x}, order {n}", ha="left", va="center")
    ax.set(
        xlim=(-0.45, 1.5), xticks=[], yticks=[], title="CUCKOO Table 6 / Fig. 7: MCHP edge weights C1 + C2 (eq. 13-14)"
    )
    ax.legend(fontsize=8, loc="lower center")
    return save_figure(fig, out_dir, "cuckoo_table6")


def draw_online(rows: Rows, out_dir: Path) -> list[Path]:
    """Tables 9-14 in one figure: Norm. JCT, deadline satisfaction and mean JCT per system,
    seeds as error bars, the paper's values as markers, the region below the best proven bound
    shaded (no schedule reaches it)."""
    import numpy as np

    from packgap.analysis.packing.reproduce import PAPER_ONLINE

    paper = {s: v for table in PAPER_ONLINE.values() for s, v in table.items()}
    runs = [r for r in rows if r["kind"] == "run"]
    seeds = sorted({r["seed"] for r in runs})
    cuckoo = {r["seed"]: r for r in runs if r["system"] == "CUCKOO"}

    def per_seed(system: str, metric: str, norm: bool = False) -> np.ndarray:
        mine = {r["seed"]: r[metric] for r in runs if r["system"] == system}
        return np.array([mine[s] / (cuckoo[s][metric] if norm else 1.0) for s in seeds])

    fig = new_figure(15.0, 4.2)
    axes = fig.subplots(1, 3)
    xs = np.arange(len(ONLINE_ORDER))
    panels = (
        ("mean_jct_s", True, 0, "Norm. JCT (CUCKOO = 1)"),
        ("deadline_satisfaction", False, 1, "deadline satisfaction (-)"),
    )
    for (metric, norm, k, label), ax in zip(panels, axes[:2], strict=True):
        values = [per_seed(s, metric, norm) for s in ONLINE_ORDER]
        ax.bar(
            xs,
            [v.mean() for v in values],
            yerr=[v.std() for v in values],
            color="tab:blue",
            capsize=3,
            label=f"ours ({len(seeds)} seed(s))",
        )
        ax.plot(xs, [paper[s][k] for s in ONLINE_ORDER], "kx", ms=8, label="paper")
        ax.set(ylabel=label)
    jct = [per_seed(s, "mean_jct_s") for s in ONLINE_ORDER]
    axes[2].bar(
        xs,
        [v.mean() / 3600 for v in jct],
        yerr=[v.std() / 3600 for v in jct],
        color="tab:orange",
        capsize=3,
        label="ours",
    )
    best = (
        np.mean([max(r["mean_jct_s"] for r in rows if r["kind"] == "reference" and r["seed"] == s) for s in seeds])
        / 3600
    )
    axes[2].axhspan(0, best, color="0.85", label="below the best proven bound")
    axes[2].set(ylabel="mean JCT (h)")
    for ax in axes:
        ax.set_xticks(xs, ONLINE_ORDER, rotation=45, ha="right", fontsize=8)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7)
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

    fig = new_figure(6.4, 4.0)
    ax = fig.subplots()
    markers = {("issue", "offline"): "o", ("issue", "online"): "s", ("paper", "offline"): "^", ("paper", "online"): "D"}
    for (base, mode), marker in markers.items():
        mine = [s for s in summary if (s["base"], s["mode"]) == (base, mode)]
        ys = [s["none_over_dab"] for s in mine]
        ax.scatter([s["queue"] for s in mine], ys, marker=marker, alpha=0.75, label=f"{base} base, {mode}")
    ax.axhline(1.0, color="k", lw=0.8)
    ax.axhline(1.79, color="k", ls="--", lw=0.8, label="paper: None 1.79x DAB")
    ax.set_xscale("symlog", linthresh=1.0)
    ax.set_xlim(left=0.0)
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.set(
        xlabel="jobs waiting without packing (online time mean, -)", ylabel="None / DAB mean JCT (>1: packing helps)"
    )
    ax.set_title("CUCKOO Table 12 direction vs queue length (every setting)", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    return save_figure(fig, out_dir, "cuckoo_direction_queue")


def _draw_factors(rows: Rows, out_dir: Path) -> list[Path]:
    """One panel per factor: None / DAB per value (bars, seeds as error bars); the jobs factor
    as lines over the job count, each base's own size included."""
    import numpy as np

    ratios = _ratios(rows)
    jobs = {(r["base"], r["factor"], r["value"]): r["jobs"] for r in rows if r["kind"] == "sweep"}
    factors = list(dict.fromkeys(cell[2] for cell in ratios if cell[2] != "base"))
    fig = new_figure(16.0, 7.0)
    axes = fig.subplots(2, (len(factors) + 1) // 2).ravel()
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
                ys = [np.mean(d) for _, d in cells]
                ax.errorbar(
                    [n for n, _ in cells],
                    ys,
                    yerr=[np.std(d) for _, d in cells],
                    marker="o",
                    capsize=2,
                    label=f"{base}, {mode}",
                )
                continue
            data = [ratios.get((base, mode, "base", "-"), [])] + [
                ratios.get((base, mode, factor, v), []) for v in values
            ]
            xs = np.arange(len(data)) + (k - 1.5) * 0.2
            means = [np.mean(d) if d else np.nan for d in data]
            ax.bar(xs, means, 0.2, yerr=[np.std(d) if d else 0 for d in data], capsize=2, label=f"{base}, {mode}")
        if factor == "jobs":
            sizes = sorted({n for (b, f, _), n in jobs.items() if f in ("base", "jobs")})
            ax.set(xscale="log", xlabel="jobs (-)")
            ax.set_xticks(sizes, [str(n) for n in sizes], fontsize=7)
            ax.minorticks_off()
        else:
            labels = ["base", *(str(v) for v in values)]
            ax.set_xticks(range(len(labels)), labels, fontsize=7, rotation=20)
        ax.axhline(1.0, color="k", lw=0.8)
        ax.axhline(1.79, color="k", ls="--", lw=0.8)
        ax.set(title=factor, ylabel="None / DAB mean JCT (-)")
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=7)
    for ax in axes[len(factors) :]:
        ax.set_visible(False)
    fig.suptitle(
        "CUCKOO Table 12 (issue 13): one factor at a time; > 1 reproduces the paper's direction (dashed: paper's 1.79)"
    )
    return save_figure(fig, out_dir, "cuckoo_direction_factors")


def _draw_objectives(summary: Rows, out_dir: Path) -> list[Path]:
    import numpy as np
    from matplotlib.colors import ListedColormap

    panels = (("issue", "offline"), ("paper", "online"))
    fig = new_figure(13.0, 7.5)
    codes = {"hurts": 0, "tie": 1, "helps": 2}
    for ax, (base, mode) in zip(fig.subplots(1, 2), panels, strict=True):
        mine = [s for s in summary if (s["base"], s["mode"]) == (base, mode)]
        if not mine:
            continue
        names = list(mine[0]["direction"])
        grid = np.array([[codes[s["direction"][n]] for n in names] for s in mine])
        ax.imshow(grid, cmap=ListedColormap([DIRECTION_COLORS[k] for k in codes]), vmin=0, vmax=2, aspect="auto")
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
        ax.set_yticks(range(len(mine)), [f"{s['factor']}={s['value']}" for s in mine], fontsize=7)
        ax.set(xlabel="objective scored (eq. 10: alpha per s of mean JCT, beta = 1)", title=f"{base} base, {mode}")
    fig.suptitle("CUCKOO Table 12 direction by objective: green packing helps, red hurts, grey within 1 %")
    return save_figure(fig, out_dir, "cuckoo_direction_objectives")


def _draw_muri(rows: Rows, out_dir: Path) -> list[Path]:
    muri = [r for r in rows if r["kind"] == "muri" and r["traces"]]
    if not muri:
        return []
    fig = new_figure(8.0, 5.0)
    ax = fig.subplots()
    labels = [f"{r['scenario']}: {r['method']}" for r in muri]
    ys = range(len(muri))
    ax.barh(ys, [r["late_jobs"] for r in muri], color="tab:red", alpha=0.4, label="late jobs")
    ax.barh(ys, [r["doomed"] for r in muri], color="tab:red", label="doomed at arrival (no preemption)")
    ax.set_yticks(list(ys), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set(xlabel="jobs (-)", title="Muri trace, 40 jobs on V100:32, seed 1: late jobs and their cause")
    ax.legend(fontsize=8)
    return save_figure(fig, out_dir, "cuckoo_muri_late")


def draw_direction(rows: Rows, out_dir: Path) -> list[Path]:
    """Queue length vs None / DAB, one panel per factor, the direction per objective, and the
    Muri-trace misses (when the trace was there)."""
    from packgap.analysis.packing.direction import direction_summary

    summary = direction_summary(rows)
    paths = _draw_queue(summary, out_dir) + _draw_factors(rows, out_dir) + _draw_objectives(summary, out_dir)
    return paths + _draw_muri(rows, out_dir)
