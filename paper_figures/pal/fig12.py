"""PAL's Fig. 12: the wait time of every job of Sia-Philly workloads 3 and 5 under PM-First, PAL
and Tiresias (:mod:`packgap.paper_figures.pal.sia_philly`). The paper plots the waits without numbers;
the comparison reports each run's mean wait.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from packgap.analysis.kit import Direction, PaperValue, Tick
from packgap.paper_figures.pal.plots import BASELINE
from packgap.paper_figures.pal.sia_philly import missing, sia_philly, simulate_policy

FIG12_WORKLOADS = (3, 5)
FIG12_POLICIES = ("pm-first", "pal", BASELINE)


def fig12(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Per-job wait times of workloads 3 and 5 (those present) under PM-First, PAL, Tiresias."""
    sia = sia_philly()
    if isinstance(sia, str):
        return [{"missing": sia}]
    rows = []
    for w in [w for w in FIG12_WORKLOADS if w in sia.workloads]:
        submit = {j.id: j.submit_time for j in sia.workloads[w]}
        for policy in FIG12_POLICIES:
            result = simulate_policy(sia, sia.cluster, w, policy, "paper")
            ids = sorted(result.wait, key=lambda j: (submit[j], int(j)))
            rows.append({"workload": w, "policy": policy, "job": ids, "wait_s": [result.wait[j] for j in ids]})
            tick("Fig. 12", 1, None)
    return rows


def compare_fig12(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    reason = missing(rows)
    runs = [(r["workload"], r["policy"], r["wait_s"]) for r in rows if not reason]
    runs = runs or [(w, p, []) for w in FIG12_WORKLOADS for p in FIG12_POLICIES]
    note = reason or "the paper plots per-job waits without numbers (workload 5 waits longer)"
    # Section V-B: workload 5 waits longer than workload 3 (same policy).
    return [
        PaperValue(
            "Fig. 12",
            f"workload {w} mean wait, {p}",
            None,
            fmean(waits) / 3600 if waits else None,
            "h",
            note,
            Direction(">", f"workload 3 mean wait, {p}") if w == 5 else None,
        )
        for w, p, waits in runs
    ]
