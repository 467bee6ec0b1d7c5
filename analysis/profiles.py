"""Dolan-More performance profiles of stored results (Dolan and More 2002, Math. Prog. 91).

For a measure m (solve time, or objective) and every instance p, a method s gets the ratio
r(p, s) = m(p, s) / min over methods of m(p, ·); a cell without an answer gets infinity. The
profile of s is the share of instances with r(p, s) <= tau, drawn against tau. Only instances
that every chosen method was run on count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from packgap.errors import PackgapError

MEASURES = {"time": "wall_s", "objective": "objective"}


def ratios(frame: Any, measure: str) -> Any:
    """Instances x methods table of performance ratios (inf where a method has no answer)."""
    import numpy as np

    if measure not in MEASURES:
        raise PackgapError(f"--profile {measure}: choose one of {', '.join(MEASURES)}")
    column = MEASURES[measure]
    offline = frame[~frame["method"].str.startswith("simulate:")]
    table = offline.pivot_table(index="instance_digest", columns="method", values=column, aggfunc="last")
    answered = offline.pivot_table(index="instance_digest", columns="method", values="objective", aggfunc="last")
    table = table.where(answered.notna(), np.inf).astype(float)
    if measure == "objective" and (table[np.isfinite(table)] <= 0).any().any():
        raise PackgapError("--profile objective needs positive objectives (ratios to the best)")
    best = table.min(axis=1).replace(0.0, 1e-12)
    return table.div(best, axis=0)


def plot_profiles(frame: Any, measure: str, path: Path) -> Path:
    """Write the performance profile of every method on ``measure`` to ``path``."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    table = ratios(frame, measure)
    if table.empty:
        raise PackgapError("no stored results to profile")
    finite = table.to_numpy()[np.isfinite(table.to_numpy())]
    top = max(2.0, float(finite.max()) * 1.05) if finite.size else 2.0
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    taus = np.geomspace(1.0, top, 400)
    for method in table.columns:
        values = table[method].to_numpy()
        ax.step(taus, [(values <= t).mean() for t in taus], where="post", label=str(method))
    ax.set_xscale("log")
    ax.set(
        xlabel=f"tau: {measure} / best {measure} on the instance (log)",
        ylabel="share of instances within tau",
        ylim=(0.0, 1.02),
        title=f"Performance profile of {measure} ({len(table)} instances; Dolan-More)",
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", ncol=2)
    fig.savefig(path, dpi=150)
    return path
