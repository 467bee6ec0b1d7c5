"""PAL (variability- and locality-aware placement): Table IV and Figs. 9-19, one module per numbered
result (the simulated halves of Table IV and Figs. 9-10 in one reproduction, the Synergy section's
Figs. 14-17 and 19 in another).

:mod:`packgap.paper_figures.pal.fig11` (Fig. 11 and 13, which share their runs),
:mod:`packgap.paper_figures.pal.fig12` (Fig. 12), :mod:`packgap.paper_figures.pal.fig18` (Fig. 18),
:mod:`packgap.paper_figures.pal.summit` (a whole Summit-sized trace, beside Fig. 18),
:mod:`packgap.paper_figures.pal.table4` (Table IV, Figs. 9-10) and the Synergy section (Figs. 14-17,
19: :mod:`packgap.paper_figures.pal.synergy`); the Sia-Philly setup they share is
:mod:`packgap.paper_figures.pal.sia_philly`, their figures :mod:`packgap.paper_figures.pal.plots`.
packgap's own per-round gaps along these traces are :mod:`packgap.paper_figures.gaps.placement_rounds`.
"""

from __future__ import annotations

from typing import Any

from packgap.analysis.kit import Reproduction
from packgap.analysis.method import Deferred

JCT, WAITS = "packgap.paper_figures.pal.fig11", "packgap.paper_figures.pal.fig12"
OVERHEAD, SUMMIT = "packgap.paper_figures.pal.fig18", "packgap.paper_figures.pal.summit"
FIGURES = "packgap.paper_figures.pal.plots"
SYNERGY, TESTBED = "packgap.paper_figures.pal.synergy", "packgap.paper_figures.pal.table4"


def _readings(quick: bool) -> dict[str, Any]:
    return {"workloads": "all Sia-Philly", "readings": "paper" if quick else "paper, artifact"}


REPRODUCTIONS = tuple(
    Reproduction(name, "PAL", item, title, compute, draw, compare, size)
    for name, item, title, compute, draw, compare, size in (
        (
            "pal-fig11",
            "Fig. 11",
            "Average JCT per policy vs Tiresias",
            Deferred(f"{JCT}:fig11"),
            Deferred(f"{FIGURES}:draw_fig11"),
            Deferred(f"{JCT}:compare_fig11"),
            _readings,
        ),
        (
            "pal-fig12",
            "Fig. 12",
            "Wait time per job, workloads 3 and 5",
            Deferred(f"{WAITS}:fig12"),
            Deferred(f"{FIGURES}:draw_fig12"),
            Deferred(f"{WAITS}:compare_fig12"),
            lambda quick: {"workloads": "3, 5"},
        ),
        (
            "pal-fig13",
            "Fig. 13",
            "Average JCT vs locality penalty",
            Deferred(f"{JCT}:fig13"),
            Deferred(f"{FIGURES}:draw_fig13"),
            Deferred(f"{JCT}:compare_fig13"),
            lambda quick: {**_readings(quick), "L_across": "1, 3" if quick else "1-3 by 0.5"},
        ),
        (
            "pal-fig18",
            "Fig. 18",
            "Placement time per round vs cluster size",
            Deferred(f"{OVERHEAD}:fig18"),
            Deferred(f"{FIGURES}:draw_fig18"),
            Deferred(f"{OVERHEAD}:compare_fig18"),
            Deferred(f"{OVERHEAD}:fig18_size"),
        ),
        (
            "pal-summit",
            "Fig. 18",
            "A whole Summit-sized trace with PAL, sampled rounds certified",
            Deferred(f"{SUMMIT}:summit"),
            Deferred(f"{FIGURES}:draw_summit"),
            Deferred(f"{SUMMIT}:compare_summit"),
            Deferred(f"{SUMMIT}:summit_size"),
        ),
        (
            "pal-synergy",
            "Figs. 14-17, 19",
            "Synergy traces: average JCT, GPUs in use and waits vs job load under FIFO, LAS, SRTF",
            Deferred(f"{SYNERGY}:synergy"),
            Deferred("packgap.paper_figures.pal.plots_synergy:draw_synergy"),
            Deferred(f"{SYNERGY}:compare_synergy"),
            Deferred(f"{SYNERGY}:synergy_size"),
        ),
        (
            "pal-table4",
            "Table IV, Figs. 9-10",
            "Simulation half of the testbed comparison: Tiresias vs PAL on the Sia-Cluster trace",
            Deferred(f"{TESTBED}:testbed"),
            Deferred(f"{FIGURES}:draw_testbed"),
            Deferred(f"{TESTBED}:compare_testbed"),
            Deferred(f"{TESTBED}:testbed_size"),
        ),
    )
)
