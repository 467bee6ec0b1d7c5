"""GIMBAL's Fig. 8 (section 7.2), with the exact calibration optimum beside GIMBAL: 150 Philly
jobs and 300 Alibaba jobs on 32 GPUs (:mod:`~packgap.paper_figures.gimbal.endtoend`): Lucid's mean
JCT, Gandiva's met deadlines, Gavel's makespan, without and with GIMBAL, and with the exact
calibration; and aggressive packing without calibration, since ``gimbal`` changes the packing
policy too (:mod:`~packgap.heuristics.calibration.online`): GIMBAL over it is calibration's own gain.
Figs. 9-11 (:mod:`~packgap.paper_figures.gimbal.fig9_fig11`) view these runs.

The rows need the trace files of :data:`~packgap.paper_figures.gimbal.endtoend.TRACE_FILES`;
without them the runs use the seeded workload generator and say so in every row (``workload``).
``quick`` runs fewer jobs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis.calibration.simulate import improvement
from packgap.analysis.kit import PaperValue, Reproduction, Tick, side
from packgap.heuristics.calibration.variants import BASES
from packgap.paper_figures.gimbal import endtoend, plots
from packgap.paper_figures.gimbal.plots import PAPER_FIG8

#: Fig. 8 adds aggressive packing without calibration, so calibration's own gain shows
#: (``gimbal`` / ``aggressive``) apart from the packing policy's (``aggressive`` / ``baseline``).
FIG8_VARIANTS = ("baseline", "aggressive", "gimbal", "exact")


def fig8_size(quick: bool) -> dict[str, Any]:
    """Quick runs 100 of the 150 jobs: measured, GIMBAL's three ratios lie above 1 from 100
    jobs on (1.07 / 1.17 / 1.07 in 14 s) as at 150 (1.04 / 1.26 / 1.06), but not at 50
    (0.95 / 0.89 / 0.86) or 75 (Gavel 0.91): with few jobs the 16 nodes are too lightly
    loaded for packing to pay. The Alibaba workload runs its 300 jobs in both modes: at 150
    its ratios read 0.93 / 0.95 / 1.01, against 1.09 / 0.86 / 1.17 at 300 (all four variants of
    the 300 jobs take 20 s). Figs. 9-11 view these runs: one of their directions differs between
    the sizes, Fig. 10's Philly large class (GIMBAL meets 6 deadlines against 5 of 14 at 100 jobs,
    8 against 9 of 21 at 150)."""
    return {"philly jobs": 100 if quick else 150, "alibaba jobs": 300, "nodes": 16, "seeds": 1}


def fig8(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    size = fig8_size(quick)
    tick("Fig. 8", 0, 2 * len(BASES) * len(FIG8_VARIANTS))
    rows = []
    for trace in ("philly", "alibaba"):
        rows += endtoend.runs(trace, size[f"{trace} jobs"], size["nodes"], tuple(BASES), FIG8_VARIANTS, tick, "Fig. 8")
    return rows


def _fig8_note(rows: Sequence[Mapping[str, Any]], base: str) -> str:
    """Fig. 8's measured cause: aggressive packing alone, calibration over it, the exact
    calibration (no search cost) against the base."""
    packing, gimbal = improvement(rows, base, "aggressive"), improvement(rows, base, "gimbal")
    exact = improvement(rows, base, "exact")
    note = (
        f"measured: aggressive packing alone gives x{packing:.2f}, calibration adds x{gimbal / packing:.2f} over it, "
        f"the exact calibration reaches x{exact:.2f}"
    )
    if gimbal < 1 and exact < 1:
        note += (
            ": even the exact calibration loses, so the loss is the packing set-up (pairs GIMBAL packs that the base "
            "would not, at this size), not GIMBAL's search; an exact per-set calibration optimises each set at one "
            "moment, blind to later arrivals"
        )
    elif gimbal < 1:
        search = next(r for r in rows if r["base"] == base and r["variant"] == "gimbal")["search_time_s"]
        note += (
            f": the exact calibration, which costs no search, does not lose, so the loss is GIMBAL's search "
            f"({search / 3600:.1f} h of search charged over the run, section 7.4's cost model) and its greedy "
            "shares, on top of aggressive packing's own loss"
        )
    return note


def compare_fig8(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for trace, papers in PAPER_FIG8.items():
        mine = [r for r in rows if r["trace"] == trace]
        name = trace.capitalize()
        for base, paper in papers.items():
            ours = improvement(mine, base, "gimbal")
            note = _fig8_note(mine, base)
            out.append(PaperValue("Fig. 8", f"{name}: {base} + GIMBAL", paper, ours, "x", note, side(paper, 1.0)))
            exact = improvement(mine, base, "exact")
            out.append(PaperValue("Fig. 8", f"{name}: {base} + exact calibration", None, exact, "x"))
            packing = improvement(mine, base, "aggressive")
            out.append(PaperValue("Fig. 8", f"{name}: {base} + aggressive packing alone", None, packing, "x"))
            out.append(
                PaperValue(
                    "Fig. 8",
                    f"{name}: {base}: GIMBAL's calibration over aggressive packing alone",
                    None,
                    ours / packing,
                    "x",
                    "calibration's own gain, packing policy held fixed",
                )
            )
    return out


REPRODUCTION = Reproduction(
    "gimbal-fig8",
    "GIMBAL",
    "Fig. 8",
    "End to end on Philly and Alibaba: Lucid, Gandiva, Gavel +- GIMBAL",
    fig8,
    plots.draw_fig8,
    compare_fig8,
    fig8_size,
)
