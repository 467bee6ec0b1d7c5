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
