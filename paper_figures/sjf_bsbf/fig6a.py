"""SJF-BSBF's Fig. 6a: average JCT against the workload, 0.5x-2x of 240 jobs, every policy against
SJF-BSBF (section VI-C), with the valid bounds of :mod:`~packgap.paper_figures.sjf_bsbf.common`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis.kit import Direction, PaperValue, Reproduction, Tick
from packgap.paper_figures.sjf_bsbf import plots
from packgap.paper_figures.sjf_bsbf.common import (
    HOUR,
    POLICIES,
    SHARING_CAUSE,
    bound_values,
    lp_in,
    mean_metric,
    queue_hours,
    seed_range,
    simulate_row,
    sizes,
    with_reading,
)


def fig6a(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    from packgap.instances.sharing.generator import generate

    rows = []
    for load in (0.5, 1.0, 1.5, 2.0):
        for seed in seed_range(quick):
            instance = generate(round(240 * load), seed, workload="v1")
            rows.append(simulate_row(instance, {"seed": seed, "load": load}, tick, lp_in(quick)))
    return rows


def compare_fig6a(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for load in sorted({r["load"] for r in rows}):
        at = [r for r in rows if r["load"] == load]
        # Section VI-C: "across all job workloads" SJF-BSBF keeps the lowest JCT (Pollux, not
        # reproduced, is the exception at light load).
        best = f"sjf-bsbf avg JCT at {load:g}x"
        for p in POLICIES:
            direction = None if p == "sjf-bsbf" else Direction(">", best)
            label = f"{p} avg JCT at {load:g}x"
            ours = mean_metric(at, p, "avg_jct_s") / HOUR
            tie = ours == mean_metric(at, "sjf-bsbf", "avg_jct_s") / HOUR
            cause = (
                f"measured: every policy ties at {load:g}x (SJF queues {queue_hours(at, 'sjf'):.2g} h): "
                "without a queue neither the order nor sharing changes anything"
                if tie
                else SHARING_CAUSE
            )
            out.append(PaperValue("Fig. 6a", label, None, ours, "h", "", direction, cause=cause))
        out += bound_values("Fig. 6a", at, HOUR, "h", f" at {load:g}x")
    return with_reading(out)


REPRODUCTION = Reproduction(
    "sjf-bsbf-fig6a",
    "SJF-BSBF",
    "Fig. 6a",
    "Average JCT vs workload (0.5x-2x of 240 jobs)",
    fig6a,
    plots.draw_fig6a,
    compare_fig6a,
    sizes("120-480"),
)
