"""Figure of online runs, after CUCKOO Fig. 9: queue length and overtime jobs over time, and the
JCT CDF, one line per pipeline.

A pure function of the simulation document (benchopt: figures from stored results); drawn on
matplotlib's Agg canvas without pyplot, so it needs no display and leaves no global state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_document(document: dict[str, Any], path: Path) -> Path:
    """Write queue length and overtime jobs over time and the JCT CDF of every run to ``path``."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from packgap.analysis.packing.online import overtime_steps

    arrival = {j["id"]: j["arrival_s"] for j in document["jobs"]}
    deadline = {j["id"]: j["deadline_s"] for j in document["jobs"]}
    fig = Figure(figsize=(15.0, 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    queue_ax, overtime_ax, cdf_ax = fig.subplots(1, 3)
    for report in document["pipelines"]:
        name, run = report["pipeline"], report["run"]
        end = report["metrics"]["makespan_s"]
        completions = [(o["job"], o["completion"]) for o in run["jobs"]]
        queue = [tuple(p) for p in run["queue"]]
        for ax, series in ((queue_ax, queue), (overtime_ax, overtime_steps(deadline, completions))):
            times = np.array([t for t, _ in series] + [end]) / 3600.0
            ax.step(times, [v for _, v in series] + [series[-1][1]], where="post", label=name)
        jct = np.sort([done - arrival[job] for job, done in completions]) / 3600.0
        cdf_ax.step(jct, np.arange(1, len(jct) + 1) / len(jct), where="post", label=name)
    queue_ax.set(xlabel="time (h)", ylabel="jobs waiting", title=f"Queue length: {document['instance']}")
    overtime_ax.set(xlabel="time (h)", ylabel="jobs past their deadline, unfinished", title="Overtime jobs")
    cdf_ax.set(xlabel="JCT (h)", ylabel="fraction of jobs", title="JCT CDF", ylim=(0.0, 1.0))
    for ax in (queue_ax, overtime_ax, cdf_ax):
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    fig.savefig(path, dpi=120)
    return path
