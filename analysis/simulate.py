"""``packgap simulate``: online runs of a family's policies over a whole trace.

The packing family replays CUCKOO's online mode (``analysis.online``): jobs arrive over
time, the waiting queue is re-packed and re-planned every round, groups are never
preempted. The objective and metrics of every run come from the family's evaluator.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from analysis.online import PIPELINE_NAMES, compare_online, online_document
from analysis.online_bound import references
from analysis.online_plots import plot_online
from packgap.errors import PackgapError
from packgap.packing import PackingInstance
from solvers.outcome import SolveOptions


def simulate_packing(
    instance: Any,
    pipelines: str,
    *,
    interval_s: float | None,
    on_events: bool,
    reference: str | None,
    time_limit: float | None,
    plot: Path | None,
) -> dict[str, Any]:
    """Run ``pipelines`` ("all" or a comma list) online; returns the JSON-ready document."""
    if not isinstance(instance, PackingInstance):
        raise PackgapError("--pipeline applies to packing instances")
    names = list(PIPELINE_NAMES) if pipelines.strip() == "all" else [p.strip() for p in pipelines.split(",")]
    reports = compare_online(instance, names, interval_s=interval_s, on_events=on_events)
    refs = references(instance, exact=reference, options=SolveOptions(time_limit=time_limit or 60.0))
    if plot is not None:
        plot_online(instance, reports, plot)
    return online_document(instance, reports, refs)


def plot_trace_run(document: dict[str, Any], path: Path) -> Path:
    """GPU utilisation per round and the JCT distribution of one cluster-trace run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, (util, cdf) = plt.subplots(1, 2, figsize=(10, 3.6))
    rounds = np.arange(len(document["utilisation"])) * document["round_length_s"] / 3600
    util.plot(rounds, 100 * np.asarray(document["utilisation"]), lw=0.8)
    util.set(xlabel="time (h)", ylabel="GPUs in use (%)", title="utilisation per round")
    jct = np.sort([j["jct_s"] for j in document["jobs"]]) / 3600
    cdf.plot(jct, np.arange(1, len(jct) + 1) / len(jct))
    cdf.set(xlabel="JCT (h)", ylabel="fraction of jobs", title=f"JCT CDF, mean {jct.mean():.2f} h")
    fig.suptitle(f"{document['instance']}: {document['scheduler']} + {document['placement']}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
