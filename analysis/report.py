"""Gap tables and figures as pure functions of stored results (benchopt: figures never rerun).

Primal gaps are recomputed here against the best objective any method reached on the same
instance (same digest); certified gaps come from each row's own bound.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from packgap.analysis.store import ResultStore
from packgap.result import certified_gap, primal_gap


def load_rows(store: ResultStore) -> pd.DataFrame:
    """One row per stored cell, with ``primal_gap`` and the instance summary's fields as columns."""
    frame = pd.DataFrame(store.rows())
    if frame.empty:
        return frame
    best = frame.groupby("instance_digest")["objective"].transform("min")
    frame["primal_gap"] = [
        primal_gap(o, b) if pd.notna(o) else None for o, b in zip(frame["objective"], best, strict=True)
    ]
    frame["gap"] = [
        certified_gap(o, b) if pd.notna(o) and pd.notna(b) else None
        for o, b in zip(frame["objective"], frame["bound"], strict=True)
    ]
    summaries = pd.DataFrame([json.loads(s or "{}") for s in frame["instance_summary"]], index=frame.index)
    extra = [c for c in summaries.columns if c not in frame.columns]
    return pd.concat([frame, summaries[extra]], axis=1)


def gap_table(frame: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Mean and max primal gap, mean certified gap, share proven optimal and mean seconds per
    method (and per ``by``, an instance-summary field such as ``groups``)."""
    keys = ["family", *([by] if by else []), "method"]
    grouped = frame.groupby(keys, dropna=False)
    return grouped.agg(
        cells=("method", "size"),
        mean_primal_gap=("primal_gap", "mean"),
        max_primal_gap=("primal_gap", "max"),
        mean_certified_gap=("gap", "mean"),
        optimal_share=("status", lambda s: float((s == "optimal").mean())),
        mean_wall_s=("wall_s", "mean"),
    ).reset_index()


def plot_gaps(frame: pd.DataFrame, by: str, path: Path) -> None:
    """Mean primal gap (%) of each method against the instance size field ``by``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = gap_table(frame, by)
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for method, part in table.groupby("method"):
        part = part.sort_values(by)
        ax.plot(part[by], 100 * part["mean_primal_gap"], marker="o", label=str(method))
    ax.set_xlabel(by)
    ax.set_ylabel("mean primal gap to best known (%)")
    ax.set_title(f"{', '.join(sorted(set(table['family'])))}: heuristic gaps")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
