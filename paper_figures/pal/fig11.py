"""PAL's Fig. 11 (average JCT per policy against Tiresias) and Fig. 13 (against the locality
penalty L_across) on the Sia-Philly workloads (:mod:`packgap.paper_figures.pal.sia_philly`); the full
set computes both the paper's and the artifact's readings of PM-First and PAL.

Improvements are read as 1 - the geomean over workloads of (policy / Tiresias), Tiresias being
Packed-Sticky (section IV-A1). Section V-B calls workload 3 the best and 5 the worst
improvement "respectively", then explains that workload 5 gains most; the explanation is taken.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from packgap.analysis.kit import PaperValue, Tick, equal, side
from packgap.paper_figures.pal.plots import geomean, ratios
from packgap.paper_figures.pal.sia_philly import L_ACROSS, READINGS, missing, sia_philly, simulate_policy

FIG13_PENALTIES = (1.0, 1.5, 2.0, 2.5, 3.0)
#: PAL's two policies and the four baselines of section IV-A1, named here: a placement policy
#: added to packgap (or a plug-in's) joins Figs. 11 and 13 only when it is added to this list.
FIG11_POLICIES = ("pm-first", "pal", "packed-sticky", "packed-non-sticky", "random-sticky", "random-non-sticky")


def jct_rows(penalties: Sequence[float], readings: Sequence[str], label: str, tick: Tick) -> list[dict[str, Any]]:
    """Every policy on every workload at each L_across and reading: the run's metrics."""
    from packgap.analysis.placement.simulate import metrics

    sia = sia_philly()
    if isinstance(sia, str):
        return [{"missing": sia}]
    tick(label, 0, len(penalties) * len(readings) * len(sia.workloads) * len(FIG11_POLICIES))
    rows = []
    for reading in readings:
        for penalty in penalties:
            cluster = replace(sia.cluster, locality_penalty=penalty)
            for w in sia.workloads:
                for policy in FIG11_POLICIES:
                    result = simulate_policy(sia, cluster, w, policy, reading)
                    rows.append({"readings": reading, "l_across": penalty, "workload": w, "policy": policy})
                    rows[-1].update(metrics(result))
                    tick(label, 1, None)
    return rows


def fig11(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Quick: the paper's readings only; full: both."""
    return jct_rows((L_ACROSS,), READINGS[:1] if quick else READINGS, "Fig. 11", tick)


def fig13(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Quick: L_across 1.0 and 3.0 (the paper's quoted ends), the paper's readings only."""
    return jct_rows((1.0, 3.0) if quick else FIG13_PENALTIES, READINGS[:1] if quick else READINGS, "Fig. 13", tick)


#: Section V-B: improvement over Tiresias (%) of the geomean, least and most improved average
#: JCT over the workloads, and of the geomean makespan.
PAPER_FIG11 = {"pal": (43.0, 21.0, 59.0, 47.0), "pm-first": (40.0, 5.0, 59.0, 44.0)}
FIG11_QUANTITIES = (
    ("geomean avg JCT", "mean_jct_s", geomean),
    ("least avg JCT", "mean_jct_s", max),
    ("most avg JCT", "mean_jct_s", min),
    ("geomean makespan", "makespan_s", geomean),
)
#: Section V-B1: improvement over Tiresias (%) at L_across = 1.0 and 3.0.
PAPER_FIG13 = {"pm-first": (30.0, 9.0), "pal": (30.0, 20.0)}


def improvement(rows: Sequence[Mapping[str, Any]], policy: str, metric: str, pick: Any, **where: Any) -> float:
    """100 x (1 - ``pick`` over the workloads of policy / Tiresias)."""
    return 100 * (1 - pick(ratios(rows, policy, metric, **where).values()))


def compare_fig11(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    reason = missing(rows)
    out = []
    for reading in dict.fromkeys(r["readings"] for r in rows if not reason) or ["paper"]:
        tag, note = ("", "") if reading == "paper" else (" [artifact]", "the artifact's readings of PM-First and PAL")
        note = reason or note
        for policy, paper in PAPER_FIG11.items():
            for (q, metric, pick), value in zip(FIG11_QUANTITIES, paper, strict=True):
                ours = None if reason else improvement(rows, policy, metric, pick, readings=reading)
                quantity = f"{policy} {q} improvement over Tiresias{tag}"
                cause = "" if reason else _worst(rows, policy, reading)
                out.append(PaperValue("Fig. 11", quantity, value, ours, "%", note, side(value, 0.0), cause=cause))
        pal = {} if reason else ratios(rows, "pal", "mean_jct_s", readings=reading)
        for q, value, pick in (("most", 5.0, min), ("least", 3.0, max)):
            ours = float(pick(pal, key=pal.__getitem__)) if pal else None
            quantity = f"workload PAL improves {q}{tag}"
            cause = ""
            if pal:
                gains = ", ".join(f"{w}: {100 * (1 - pal[w]):.0f} %" for w in sorted(pal))
                cause = (
                    f"measured per workload ({gains}); section V-B names workload 3 the best and 5 the worst "
                    "'respectively' yet explains 5 as the biggest gain, so the text cannot fix both ends"
                )
            out.append(PaperValue("Fig. 11", quantity, value, ours, "", note, equal(), cause=cause))
    return out


def _worst(rows: Sequence[Mapping[str, Any]], policy: str, reading: str) -> str:
    """The workload where ``policy`` does worst against Tiresias, and PAL there."""
    mine = ratios(rows, policy, "mean_jct_s", readings=reading)
    pal = ratios(rows, "pal", "mean_jct_s", readings=reading)
    w = max(mine, key=mine.__getitem__)
    return (
        f"measured: {policy}'s worst workload is {w} ({100 * (1 - mine[w]):+.1f} %), where PAL gains "
        f"{100 * (1 - pal[w]):+.1f} %: PAL differs from PM-First only by weighing locality (section III-C), so "
        "on this workload PM-First's spread across nodes costs more than its better GPUs gain"
    )


def compare_fig13(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    reason = missing(rows)
    note = reason or "one L_across for all models (the paper's per-model values, IV-D, are not published)"
    out = []
    for policy, paper in PAPER_FIG13.items():
        for lv, value in zip((1.0, 3.0), paper, strict=True):
            ours = None if reason else improvement(rows, policy, "mean_jct_s", geomean, l_across=lv, readings="paper")
            quantity = f"{policy} improvement over Tiresias at L_across {lv:g}"
            out.append(PaperValue("Fig. 13", quantity, value, ours, "%", note, side(value, 0.0)))
    return out
