"""``exact-ti``'s parameters, apart from its driver so that the method is declared without
importing NumPy or a solver (issue 20.5)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TiSettings:
    """``periods``: periods of the first level; ``max_columns``: universe cap (about 100
    bytes each); ``batch``: columns added per pricing round; ``milp_universe``: largest
    universe solved as an integer program (a bound), else ``milp_columns`` of least reduced
    cost (an answer); ``milp_share``: its share of the time left; ``search_share``: the share
    of the time left for local search from a new best answer (once per level, from the
    second);
    ``cpsat_share``: share of the time limit kept for the CP-SAT polish when the data lie on
    its grid (there it can prove optimality, e.g. where mixed demands leave the LP a gap);
    off the grid it gets only what is left once halving stops (measured on 40 and 100
    generated jobs, it never improved the levels' answer there)."""

    periods: int = 32
    max_columns: int = 3_000_000
    batch: int = 2000
    milp_columns: int = 2000
    milp_universe: int = 20_000
    milp_share: float = 0.15
    search_share: float = 0.25
    cpsat_share: float = 0.25
