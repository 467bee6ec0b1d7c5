"""Figure of online runs, after CUCKOO Fig. 9: queue length and overtime jobs over time, and the
JCT CDF, one line per pipeline.

A pure function of the runs (benchopt: figures from stored results); drawn on matplotlib's Agg
canvas without pyplot, so it needs no display and leaves no global figure state behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analysis.online import OnlineReport, overtime_series
from packgap.packing import PackingInstance


def plot_online(instance: PackingInstance, reports: Sequence[OnlineReport], path: Path) -> Path:
    """Write a PNG with queue length and overtime jobs over time and the JCT CDF to ``path``."""
    arrival = {j.id: j.arrival for j in instance.jobs}
    fig = Figure(figsize=(15.0, 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    queue_ax, overtime_ax, cdf_ax = fig.subplots(1, 3)
    for report in reports:
        end = report.metrics["makespan_s"]
        for ax, series in ((queue_ax, report.run.queue), (overtime_ax, overtime_series(instance, report.run))):
            times = np.array([t for t, _ in series] + [end]) / 3600.0
            ax.step(times, [v for _, v in series] + [series[-1][1]], where="post", label=report.pipeline)
        jct = np.sort([o.completion - arrival[o.job] for o in report.run.jobs]) / 3600.0
        cdf_ax.step(jct, np.arange(1, len(jct) + 1) / len(jct), where="post", label=report.pipeline)
    queue_ax.set(xlabel="time (h)", ylabel="jobs waiting", title=f"Queue length: {instance.name}")
    overtime_ax.set(xlabel="time (h)", ylabel="jobs past their deadline, unfinished", title="Overtime jobs")
    cdf_ax.set(xlabel="JCT (h)", ylabel="fraction of jobs", title="JCT CDF", ylim=(0.0, 1.0))
    for ax in (queue_ax, overtime_ax, cdf_ax):
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    fig.savefig(path, dpi=120)
    return path
