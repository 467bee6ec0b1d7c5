"""Figures of the SJF-BSBF reproductions: pure functions of the computed rows (PNG + PDF)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.plotting import new_figure, save_figure

HOUR = 3600.0
POLICIES = ("fifo", "sjf", "tiresias", "sjf-ffs", "sjf-bsbf")


def _figure(width: float = 7.0, height: float = 4.0, columns: int = 1) -> tuple[Any, Any]:
    fig = new_figure(width, height)
    return fig, fig.subplots(1, columns)


def _mean(rows: Sequence[Mapping[str, Any]], policy: str, metric: str) -> float:
    values = [r["metrics"][metric] for row in rows for r in row["runs"] if r["policy"] == policy]
    return sum(values) / len(values)


def _bound(rows: Sequence[Mapping[str, Any]]) -> float:
    return sum(r["bound_avg_jct_s"] for r in rows) / len(rows)


def draw_table2(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    fig, (left, right) = _figure(11, 4, 2)
    xs = range(len(POLICIES))
    left.bar(xs, [_mean(rows, p, "makespan_s") for p in POLICIES], color="C0", label="makespan")
    right.bar(xs, [_mean(rows, p, "avg_jct_s") for p in POLICIES], color="C1", label="average JCT")
    right.axhline(_bound(rows), color="k", ls=":", label="cheap bound")
    milp = [r["milp_bound_avg_jct_s"] for r in rows if r.get("milp_bound_avg_jct_s") is not None]
    if milp:
        right.axhline(sum(milp) / len(milp), color="k", ls="--", label="MILP bound")
    for ax, label in ((left, "makespan (s)"), (right, "average JCT (s)")):
        ax.set_xticks(list(xs), POLICIES)
        ax.set(xlabel="policy", ylabel=label)
        ax.legend(fontsize=8)
    fig.suptitle("SJF-BSBF Table II: testbed-like workload (30 jobs, 16 GPUs)")
    return save_figure(fig, out_dir, "sjf_bsbf_table2")


def draw_table(item: str) -> Callable[[Sequence[Mapping[str, Any]], Path], list[Path]]:
    def draw(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
        fig, (left, right) = _figure(11, 4, 2)
        width = 0.27
        for k, (label, suffix) in enumerate((("all", ""), ("large", "large_"), ("small", "small_"))):
            xs = [i + (k - 1) * width for i in range(len(POLICIES))]
            left.bar(xs, [_mean(rows, p, f"{suffix}avg_jct_s") / HOUR for p in POLICIES], width, label=label)
            right.bar(xs, [_mean(rows, p, f"{suffix}avg_queuing_s") / HOUR for p in POLICIES], width, label=label)
        left.axhline(_bound(rows) / HOUR, color="k", ls=":", label="bound (all)")
        for ax, label in ((left, "average JCT (h)"), (right, "average queuing (h)")):
            ax.set_xticks(range(len(POLICIES)), POLICIES)
            ax.set(xlabel="policy", ylabel=label)
            ax.legend(fontsize=8)
        fig.suptitle(f"SJF-BSBF {item}: jobs > 4 GPUs large (Pollux not reproduced)")
        return save_figure(fig, out_dir, f"sjf_bsbf_{item.lower().replace(' ', '')}")

    return draw


def _lines(rows: Sequence[Mapping[str, Any]], key: str, policies: Sequence[str], ax: Any) -> None:
    xs = sorted({r[key] for r in rows})
    for p in policies:
        ax.plot(xs, [_mean([r for r in rows if r[key] == x], p, "avg_jct_s") / HOUR for x in xs], "o-", label=p)
    ax.plot(xs, [_bound([r for r in rows if r[key] == x]) / HOUR for x in xs], "k:", label="valid bound")


def draw_load(xlabel: str, title: str, stem: str) -> Callable[[Sequence[Mapping[str, Any]], Path], list[Path]]:
    """Fig. 6a's plot: every policy's average JCT and the valid bound against the load.

    Rows that say the traces were missing draw nothing."""

    def draw(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
        rows = [r for r in rows if "missing" not in r]
        if not rows:
            return []
        fig, ax = _figure()
        _lines(rows, "load", POLICIES, ax)
        ax.set(xlabel=xlabel, ylabel="average JCT (h)", title=title)
        ax.legend(fontsize=8)
        return save_figure(fig, out_dir, stem)

    return draw


draw_fig6a = draw_load("workload (x 240 jobs in 8 h)", "SJF-BSBF Fig. 6a: varying the load", "sjf_bsbf_fig6a")


def draw_fig6b(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    fig, ax = _figure()
    _lines(rows, "xi", ("sjf-ffs", "sjf-bsbf"), ax)
    ax.set(xlabel="injected interference ratio xi (-)", ylabel="average JCT (h)")
    ax.set_title("SJF-BSBF Fig. 6b: varying the interference ratio")
    ax.legend(fontsize=8)
    return save_figure(fig, out_dir, "sjf_bsbf_fig6b")
