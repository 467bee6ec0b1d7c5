"""GIMBAL's Figs. 9-11: three views of Fig. 8's runs (section 7.2).

* Fig. 9 (JCT, Lucid): mean queuing time, the JCT distribution and cluster throughput without
  and with GIMBAL (paper: queuing 1.87x and 1.51x shorter; the gain is mostly the long jobs';
  the paper's text claims nothing of the throughput panel, so it is drawn, not compared).
* Fig. 10 (deadlines, Gandiva): deadlines met per job class and cluster throughput (paper: more
  jobs of every class, higher throughput).
* Fig. 11 (makespan, Gavel): cluster throughput over time (paper: a higher peak).

Figs. 9-11 read the runs of ``gimbal-fig8`` at its sizes (:func:`~packgap.paper_figures.gimbal.endtoend.view`:
each run is computed once per process), with the exact calibration beside GIMBAL.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis.kit import Direction, PaperValue, Reproduction, Tick, side
from packgap.paper_figures.gimbal import endtoend, plots_endtoend
from packgap.paper_figures.gimbal.endtoend import JOB_CLASSES, mean
from packgap.paper_figures.gimbal.fig8 import fig8_size
from packgap.paper_figures.gimbal.plots_endtoend import PAPER_FIG9

TRACES = ("philly", "alibaba")
#: The runs each figure views: without GIMBAL, with it, and with the exact calibration.
VARIANTS = ("baseline", "gimbal", "exact")


def _jobs(trace: str, quick: bool) -> int:
    return int(fig8_size(quick)[f"{trace} jobs"])


def _views(base: str, quick: bool, tick: Tick, label: str) -> list[dict[str, Any]]:
    tick(label, 0, len(TRACES) * len(VARIANTS))
    rows = []
    for trace in TRACES:
        for variant in VARIANTS:
            rows.append(endtoend.view(trace, _jobs(trace, quick), fig8_size(quick)["nodes"], base, variant))
            tick(label, 1, None)
    return rows


def fig9(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    return _views("lucid", quick, tick, "Fig. 9")


def fig10(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    return _views("gandiva", quick, tick, "Fig. 10")


def fig11(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    return _views("gavel", quick, tick, "Fig. 11")


def _found(rows: Sequence[Mapping[str, Any]], trace: str) -> dict[str, Mapping[str, Any]]:
    return {r["variant"]: r for r in rows if r["trace"] == trace}


def _cause(found: Mapping[str, Mapping[str, Any]], quantity: str, better: str, value: Any) -> str:
    """Where GIMBAL loses: the same quantity under the exact calibration (no search cost) says
    whether the loss is GIMBAL's search and greedy shares or the aggressive packing it rides on."""
    base, gimbal, exact = (value(found[v]) for v in VARIANTS)
    exact_wins = exact > base if better == "higher" else exact < base
    where = (
        "so the loss is GIMBAL's search and greedy shares, not the packing"
        if exact_wins
        else "so the loss is the aggressive packing set-up, which even the exact calibration does not recover"
    )
    return (
        f"measured: {quantity} {base:.4g} without GIMBAL, {gimbal:.4g} with it, {exact:.4g} with the exact "
        f"calibration (no search cost), {where}; see Fig. 8's note"
    )


def _ratio(before: float, after: float) -> float:
    """``before / after``; nan when both are 0 (nothing to compare: no job queued), inf when only ``after`` is."""
    if after == 0:
        return math.nan if before == 0 else math.inf
    return before / after


def compare_fig9(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for trace in TRACES:
        found = _found(rows, trace)
        name = trace.capitalize()
        ratio = _ratio(found["baseline"]["mean_queuing_s"], found["gimbal"]["mean_queuing_s"])
        cause = _cause(found, "mean queuing (s)", "lower", lambda r: r["mean_queuing_s"])
        out.append(
            PaperValue(
                "Fig. 9",
                f"{name}: queuing time, Lucid / Lucid + GIMBAL",
                PAPER_FIG9[trace],
                ratio,
                "x",
                direction=side(PAPER_FIG9[trace], 1.0),
                cause=cause,
            )
        )
        gains = {
            half: found["baseline"][f"{half}_jct_s"] / found["gimbal"][f"{half}_jct_s"] for half in ("short", "long")
        }
        short = f"{name}: JCT gain of the shorter half of the jobs"
        out.append(PaperValue("Fig. 9", short, None, gains["short"], "x", "jobs below the median solo duration"))
        long_cause = (
            f"measured: mean JCT of the longer half {found['baseline']['long_jct_s']:.0f} -> "
            f"{found['gimbal']['long_jct_s']:.0f} s, of the shorter half {found['baseline']['short_jct_s']:.0f} -> "
            f"{found['gimbal']['short_jct_s']:.0f} s"
        )
        out.append(
            PaperValue(
                "Fig. 9",
                f"{name}: JCT gain of the longer half of the jobs",
                None,
                gains["long"],
                "x",
                "paper: the gain is mostly the long jobs'",
                Direction(">", short),
                cause=long_cause,
            )
        )
    return out


def compare_fig10(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for trace in TRACES:
        found = _found(rows, trace)
        name = trace.capitalize()
        for cls in JOB_CLASSES:
            plain = f"{name}, {cls}: deadlines met by Gandiva"
            total = found["baseline"][f"{cls}_jobs"]
            out.append(PaperValue("Fig. 10", plain, None, found["baseline"][f"{cls}_met"], "jobs", f"of {total}"))
            cause = _cause(found, f"{cls} jobs meeting their deadline", "higher", lambda r, c=cls: r[f"{c}_met"])
            out.append(
                PaperValue(
                    "Fig. 10",
                    f"{name}, {cls}: deadlines met by Gandiva + GIMBAL",
                    None,
                    found["gimbal"][f"{cls}_met"],
                    "jobs",
                    f"of {total}",
                    Direction(">", plain),
                    cause=cause,
                )
            )
        out += _throughput(found, name, "Fig. 10", "mean", "Gandiva")
    return out


def _throughput(found: Mapping[str, Mapping[str, Any]], name: str, item: str, how: str, base: str) -> list[PaperValue]:
    """Cluster throughput without and with GIMBAL, its ``how`` (mean or peak) over the run's bins."""
    pick = max if how == "peak" else mean
    plain = f"{name}: {how} cluster throughput, {base}"
    if how == "peak":
        cause = _peak_cause(found)
    else:
        cause = _cause(found, f"{how} throughput (solo GPUs)", "higher", lambda r: pick(r["throughput"]))
    per_bin = f"per {found['baseline']['bin_s'] / 60:g} min bin"
    ours = {v: pick(found[v]["throughput"]) for v in ("baseline", "gimbal")}
    return [
        PaperValue(item, plain, None, ours["baseline"], "solo GPUs", per_bin),
        PaperValue(
            item,
            f"{name}: {how} cluster throughput, {base} + GIMBAL",
            None,
            ours["gimbal"],
            "solo GPUs",
            per_bin,
            Direction(">", plain),
            cause=cause,
        ),
    ]


def _peak_cause(found: Mapping[str, Mapping[str, Any]]) -> str:
    """Where each run's peak bin falls in the run and the mean throughput beside it: a peak is one
    bin, the mean says whether GIMBAL ran the cluster faster over the whole run."""
    parts = []
    for variant, label in (("baseline", "without GIMBAL"), ("gimbal", "with GIMBAL")):
        bins = found[variant]["throughput"]
        hour = found[variant]["bin_s"] / 3600
        at = max(range(len(bins)), key=lambda k: (bins[k], -k))
        parts.append(
            f"{label} the peak {bins[at]:.1f} comes at {(at + 0.5) * hour:.1f} h, in bin {at + 1} of {len(bins)}, "
            f"the mean is {mean(bins):.1f}"
        )
    return "measured: " + "; ".join(parts)


def compare_fig11(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    return [
        v for trace in TRACES for v in _throughput(_found(rows, trace), trace.capitalize(), "Fig. 11", "peak", "Gavel")
    ]


REPRODUCTIONS = (
    Reproduction(
        "gimbal-fig9",
        "GIMBAL",
        "Fig. 9",
        "Lucid +- GIMBAL: queuing time and JCT distribution",
        fig9,
        plots_endtoend.draw_fig9,
        compare_fig9,
        fig8_size,
    ),
    Reproduction(
        "gimbal-fig10",
        "GIMBAL",
        "Fig. 10",
        "Gandiva +- GIMBAL: deadlines met per job class, throughput",
        fig10,
        plots_endtoend.draw_fig10,
        compare_fig10,
        fig8_size,
    ),
    Reproduction(
        "gimbal-fig11",
        "GIMBAL",
        "Fig. 11",
        "Gavel +- GIMBAL: cluster throughput over time",
        fig11,
        plots_endtoend.draw_fig11,
        compare_fig11,
        fig8_size,
    ),
)
