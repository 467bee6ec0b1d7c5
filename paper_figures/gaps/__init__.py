"""packgap's own figures, in no paper: how far each family's heuristics are from the proven
optimum. :mod:`~packgap.paper_figures.gaps.planning` (CUCKOO's planners against the planning
optimum, by number of groups) and :mod:`~packgap.paper_figures.gaps.placement_rounds` (each PAL
placement policy's per-round gap to ``exact-blocks`` along the Sia-Philly traces).
"""

from packgap.analysis.kit import Reproduction
from packgap.analysis.method import Deferred
from packgap.paper_figures.gaps import planning

ROUNDS, FIGURES = "packgap.paper_figures.gaps.placement_rounds", "packgap.paper_figures.pal.plots"


REPRODUCTIONS = (
    planning.REPRODUCTION,
    Reproduction(
        "pal-round-gaps",
        "PAL",
        "new",
        "Per-round gap to exact-blocks along traces",
        Deferred(f"{ROUNDS}:round_gaps"),
        Deferred(f"{FIGURES}:draw_round_gaps"),
        Deferred(f"{ROUNDS}:compare_round_gaps"),
        Deferred(f"{ROUNDS}:round_gaps_size"),
    ),
)
