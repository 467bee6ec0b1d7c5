"""Figures of the SJF-BSBF reproductions: pure functions of the computed rows (PNG + PDF)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import (
    BLACK,
    CYCLE,
    color,
    legend,
    new_figure,
    panels,
    paper_marker,
    save_figure,
    seed_bars,
    seeds_note,
)
from packgap.paper_figures.sjf_bsbf.common import POLICIES

HOUR = 3600.0
NAMES = {"fifo": "FIFO", "sjf": "SJF", "tiresias": "Tiresias", "sjf-ffs": "SJF-FFS", "sjf-bsbf": "SJF-BSBF"}
#: Paper values per policy: Table II (makespan s, JCT s), Tables III / IV (h; JCT all, large,
#: small, queuing all, large, small).
Paper = Mapping[str, Sequence[float]]


def _figure(width: float = 7.0, height: float = 4.0, columns: int = 1) -> tuple[Any, Any]:
    fig = new_figure(width, height)
    return fig, panels(fig, 1, columns)


def _values(rows: Sequence[Mapping[str, Any]], policy: str, metric: str) -> list[float]:
    """``metric`` of ``policy``, one value per row (one row per seed)."""
    return [r["metrics"][metric] for row in rows for r in row["runs"] if r["policy"] == policy]


def _mean(rows: Sequence[Mapping[str, Any]], policy: str, metric: str) -> float:
    values = _values(rows, policy, metric)
    return sum(values) / len(values)


def _bound(rows: Sequence[Mapping[str, Any]]) -> float:
    return sum(r["bound_avg_jct_s"] for r in rows) / len(rows)


def _bars(ax: Any, rows: Sequence[Mapping[str, Any]], metric: str, scale: float, **bar: Any) -> None:
    """One bar per policy (its own colour), mean over seeds with sd bars from 3 seeds on."""
    means, spread = seed_bars([[v / scale for v in _values(rows, p, metric)] for p in POLICIES])
    offset = bar.pop("offset", 0.0)
    xs = [i + offset for i in range(len(POLICIES))]
    ax.bar(xs, means, yerr=spread, capsize=3, **bar)


def draw_table2(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    from packgap.paper_figures.sjf_bsbf.table2 import TABLE2

    fig, (left, right) = _figure(12, 4.2, 2)
    colors = [color(p) for p in POLICIES]
    _bars(left, rows, "makespan_s", 1.0, color=colors, label=f"ours ({seeds_note(len(rows))})")
    _bars(right, rows, "avg_jct_s", 1.0, color=colors, label="ours")
    xs = range(len(POLICIES))
    paper_marker(left, xs, [TABLE2[p][0] for p in POLICIES], label="paper (testbed)")
    paper_marker(right, xs, [TABLE2[p][1] for p in POLICIES], label="paper (testbed)")
    right.axhline(_bound(rows), color=BLACK, ls=":", label="valid bound")
    milp = [r["milp_bound_avg_jct_s"] for r in rows if r.get("milp_bound_avg_jct_s") is not None]
    if milp:
        right.axhline(sum(milp) / len(milp), color=BLACK, ls="--", label="MILP bound")
    for ax, label in ((left, "makespan (s)"), (right, "average JCT (s)")):
        ax.set_xticks(list(xs), [NAMES[p] for p in POLICIES], rotation=20)
        ax.set(xlabel="policy", ylabel=label)
        legend(ax, outside=True)
    fig.suptitle("SJF-BSBF Table II: testbed-like workload (30 jobs, 16 GPUs)")
    return save_figure(fig, out_dir, "sjf_bsbf_table2")


def draw_table(item: str, paper: Paper) -> Callable[[Sequence[Mapping[str, Any]], Path], list[Path]]:
    def draw(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
        fig, (left, right) = _figure(12, 4.2, 2)
        width = 0.27
        classes = (("all jobs", ""), ("large jobs", "large_"), ("small jobs", "small_"))
        for k, (label, suffix) in enumerate(classes):
            xs = [i + (k - 1) * width for i in range(len(POLICIES))]
            style = {"width": width, "color": CYCLE[k], "label": label, "offset": (k - 1) * width}
            _bars(left, rows, f"{suffix}avg_jct_s", HOUR, **style)
            _bars(right, rows, f"{suffix}avg_queuing_s", HOUR, **style)
            mark = "paper" if k == 0 else None
            paper_marker(left, xs, [paper[p][k] for p in POLICIES], label=mark)
            paper_marker(right, xs, [paper[p][3 + k] for p in POLICIES], label=mark)
        left.axhline(_bound(rows) / HOUR, color=BLACK, ls=":", label="bound (all jobs)")
        for ax, label in ((left, "average JCT (h)"), (right, "average queuing (h)")):
            ax.set_xticks(range(len(POLICIES)), [NAMES[p] for p in POLICIES])
            ax.set(xlabel=f"policy ({seeds_note(len(rows))})", ylabel=label)
            legend(ax, outside=True)
        fig.suptitle(f"SJF-BSBF {item}: large jobs use > 4 GPUs (Pollux not reproduced)")
        return save_figure(fig, out_dir, f"sjf_bsbf_{item.lower().replace(' ', '')}")

    return draw


def _lines(rows: Sequence[Mapping[str, Any]], key: str, policies: Sequence[str], ax: Any) -> None:
    """Average JCT per policy against ``key`` and the bound; the seed count in the title."""
    xs = sorted({r[key] for r in rows})
    ax.set_xticks(xs)
    seeds = min(sum(r[key] == x for r in rows) for x in xs)
    ax.set_title(f"{ax.get_title()} ({seeds_note(seeds)})")
    for p in policies:
        values = [[v / HOUR for v in _values([r for r in rows if r[key] == x], p, "avg_jct_s")] for x in xs]
        means, spread = seed_bars(values)
        ax.errorbar(xs, means, yerr=spread, fmt="o-", capsize=3, color=color(p), label=NAMES[p])
    ax.plot(xs, [_bound([r for r in rows if r[key] == x]) / HOUR for x in xs], ":", color=BLACK, label="valid bound")


def draw_load(xlabel: str, title: str, stem: str) -> Callable[[Sequence[Mapping[str, Any]], Path], list[Path]]:
    """Fig. 6a's plot: every policy's average JCT and the valid bound against the load.

    Rows that say the traces were missing draw nothing."""

    def draw(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
        rows = [r for r in rows if "missing" not in r]
        if not rows:
            return []
        fig, (ax,) = _figure(8.0)
        ax.set(xlabel=xlabel, ylabel="average JCT (h)", title=title)
        _lines(rows, "load", POLICIES, ax)
        legend(ax, outside=True)
        return save_figure(fig, out_dir, stem)

    return draw


draw_fig6a = draw_load("workload (x 240 jobs in 8 h)", "SJF-BSBF Fig. 6a: varying the load", "sjf_bsbf_fig6a")


def draw_fig6b(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    fig, (ax,) = _figure(8.0)
    ax.set(xlabel="injected interference ratio xi (-)", ylabel="average JCT (h)")
    ax.set_title("SJF-BSBF Fig. 6b: varying the interference ratio")
    _lines(rows, "xi", ("sjf-ffs", "sjf-bsbf"), ax)
    legend(ax, outside=True)
    return save_figure(fig, out_dir, "sjf_bsbf_fig6b")


def draw_per_job(
    item: str, workload: str, paper: tuple[float, float], unit: str
) -> Callable[[Sequence[Mapping[str, Any]], Path], list[Path]]:
    """Figs. 4-5: each policy's JCT CDF (all seeds pooled; the paper's point as a marker, JCT in
    ``unit``, h or s on a log axis) and its average queuing per model (bars, sd over seeds)."""

    def draw(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
        from packgap.analysis.plotting import log_axis

        scale = HOUR if unit == "h" else 1.0
        fig, (left, right) = _figure(13, 4.4, 2)
        seeds = len({r["seed"] for r in rows})
        for p in POLICIES:
            jct = sorted(t / scale for r in rows if r["policy"] == p for t in r["jct_s"])
            share = [(i + 1) / len(jct) for i in range(len(jct))]
            left.step(jct, share, where="post", color=color(p), label=NAMES[p])
        alone = sorted(t / scale for r in rows if r["policy"] == "alone" for t in r["jct_s"])
        if alone:
            share = [(i + 1) / len(alone) for i in range(len(alone))]
            left.step(alone, share, ":", where="post", color=BLACK, label="each job alone (bound)")
        paper_marker(left, [paper[0] / scale], [paper[1]], label="paper (SJF-BSBF)")
        if unit == "s":
            log_axis(left)
        left.set(xlabel=f"JCT ({unit})", ylabel="share of jobs (CDF)")
        left.set_title(f"JCT distribution (jobs of {seeds} seeds pooled)")
        legend(left)
        models = sorted({m for r in rows for m in r["queuing_s"]})
        width = 0.8 / len(POLICIES)
        for k, p in enumerate(POLICIES):
            mine = [r["queuing_s"] for r in rows if r["policy"] == p]
            values = [[q[m] / HOUR for q in mine if m in q] for m in models]
            means, spread = seed_bars(values)
            xs = [i + (k - 2) * width for i in range(len(models))]
            right.bar(xs, means, width=width, yerr=spread, capsize=2, color=color(p), label=NAMES[p])
        right.set_xticks(range(len(models)), models)
        right.set(xlabel="model", ylabel="average queuing (h)")
        right.set_title(f"queuing per model ({seeds_note(seeds)} with jobs of the model)")
        legend(right, outside=True)
        fig.suptitle(f"SJF-BSBF {item}: {workload} (Pollux not reproduced)")
        return save_figure(fig, out_dir, f"sjf_bsbf_{item.lower().replace('. ', '')}")

    return draw
