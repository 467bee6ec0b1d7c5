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


#: Candidate ratio ticks of a profile's log axis, written as plain numbers.
RATIO_TICKS = (1, 1.05, 1.1, 1.2, 1.5, 2, 3, 5, 10, 20, 50, 100, 1000, 10000)


def ratio_ticks(top: float, most: int = 7) -> list[float]:
    """Ticks between 1 and ``top`` from :data:`RATIO_TICKS`, each at least 1/``most`` of the log
    axis after the one before, so that their labels never run into each other."""
    import math

    span = math.log(top)
    ticks = [1.0]
    for t in RATIO_TICKS[1:]:
        if t <= top and math.log(t / ticks[-1]) >= span / most:
            ticks.append(float(t))
    return ticks


def plot_profiles(frame: Any, measure: str, path: Path) -> Any:
    """Write the performance profile of every method on ``measure`` to ``path`` (one marker and
    line style per method, the ratio axis ticked in plain numbers); returns the figure."""
    import numpy as np

    from packgap.analysis import plotting
    from packgap.analysis.report import SAME, STYLES, coincident_label

    table = ratios(frame, measure)
    if table.empty:
        raise PackgapError("no stored results to profile")
    finite = table.to_numpy()[np.isfinite(table.to_numpy())]
    top = max(2.0, float(finite.max()) * 1.05) if finite.size else 2.0
    fig = plotting.new_figure(6.4, 4.0)
    ax = plotting.panels(fig)[0]
    taus = np.geomspace(1.0, top, 400)
    for i, method in enumerate(table.columns):
        values = table[method].to_numpy()
        style = {**STYLES[i % len(STYLES)], "markevery": 40}
        shares = [(values <= t).mean() for t in taus]
        twins = [str(o) for o in table.columns if o != method and _same(values, table[o].to_numpy(), SAME)]
        colour = plotting.CYCLE[i % len(plotting.CYCLE)]
        ax.step(taus, shares, where="post", label=coincident_label(str(method), twins), color=colour, **style)
    plotting.log_axis(ax, ratio_ticks(top))
    ax.set(
        xlabel=f"ratio tau: {measure} / best {measure} on the instance (log scale)",
        ylabel="share of instances within tau",
        xlim=(1.0, top),
        ylim=(0.0, 1.02),
        title=f"Performance profile of {measure} ({len(table)} instances; Dolan-More)",
    )
    plotting.legend(ax)
    fig.savefig(path, dpi=plotting.DPI)
    return fig


def _same(a: Any, b: Any, tol: float) -> bool:
    import numpy as np

    return bool(np.all((a == b) | (np.abs(a - b) < tol)))
