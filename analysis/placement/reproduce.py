"""PAL's Fig. 11, 12, 13 and 18, and a new figure: per-round gaps to the exact round optimum.

One module per reproduction: :mod:`packgap.analysis.placement.repro_jct` (Fig. 11 and 13, which share
their runs), :mod:`packgap.analysis.placement.repro_waits` (Fig. 12),
:mod:`packgap.analysis.placement.repro_overhead` (Fig. 18) and
:mod:`packgap.analysis.placement.repro_round_gaps`; the Sia-Philly setup they share is
:mod:`packgap.analysis.placement.sia_philly`.
"""

from __future__ import annotations

from typing import Any

from packgap.analysis.kit import Reproduction
from packgap.analysis.placement import figures
from packgap.analysis.placement.repro_jct import compare_fig11, compare_fig13, fig11, fig13
from packgap.analysis.placement.repro_overhead import compare_fig18, fig18, fig18_size
from packgap.analysis.placement.repro_round_gaps import compare_round_gaps, round_gaps, round_gaps_size
from packgap.analysis.placement.repro_waits import compare_fig12, fig12


def _readings(quick: bool) -> dict[str, Any]:
    return {"workloads": "all Sia-Philly", "readings": "paper" if quick else "paper, artifact"}


REPRODUCTIONS = tuple(
    Reproduction(name, "PAL", item, title, compute, draw, compare, size)
    for name, item, title, compute, draw, compare, size in (
        (
            "pal-fig11",
            "Fig. 11",
            "Average JCT per policy vs Tiresias",
            fig11,
            figures.draw_fig11,
            compare_fig11,
            _readings,
        ),
        (
            "pal-fig12",
            "Fig. 12",
            "Wait time per job, workloads 3 and 5",
            fig12,
            figures.draw_fig12,
            compare_fig12,
            lambda quick: {"workloads": "3, 5"},
        ),
        (
            "pal-fig13",
            "Fig. 13",
            "Average JCT vs locality penalty",
            fig13,
            figures.draw_fig13,
            compare_fig13,
            lambda quick: {**_readings(quick), "L_across": "1, 3" if quick else "1-3 by 0.5"},
        ),
        (
            "pal-fig18",
            "Fig. 18",
            "Placement time per round vs cluster size",
            fig18,
            figures.draw_fig18,
            compare_fig18,
            fig18_size,
        ),
        (
            "pal-round-gaps",
            "new",
            "Per-round gap to exact-blocks along traces",
            round_gaps,
            figures.draw_round_gaps,
            compare_round_gaps,
            round_gaps_size,
        ),
    )
)
