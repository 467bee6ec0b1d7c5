"""The placement page's section "Exact rounds at cluster scale" (``docs/families/placement.md``):
the table of `exact-blocks` on generated PAL rounds (``generate_round(GPUs, jobs, seed=1)``), the
old one-cell models on the 256-GPU round, and how much `pal+blocks` improves on PAL.

The 64-GPU round is proven optimal in seconds, so its row is exact. The other rows are what a
wall-clock limit left: each gap (to the bound `exact-blocks` proves) is checked, slowly, to be at
most the quoted one plus a slack under twice the quoted limit (the largest round under its own
600 s: about 12 minutes). The rounds' sizes and PAL's and `pal+blocks`' objectives are
deterministic and exact.
"""

from __future__ import annotations

import functools
from functools import partial

import pytest

from packgap.analysis.registry import family, method
from packgap.analysis.run import solve
from packgap.instances.placement.rounds import generate_round
from packgap.placement import PlacementInstance
from packgap.result import SolveResult, Status, certified_gap
from packgap.solvers.outcome import SolveOptions
from tests.readme.quotes import Quote, check, on, params

#: The page whose numbers this module recomputes.
PAGE = "docs/families/placement.md"

#: GPUs -> (jobs asked, limit used here in s, slack of a gap in points); the README's limits
#: are 30, 10, 60 and 600 s.
ROUNDS = {64: (21, 30.0, 0.0), 256: (50, 20.0, 0.01), 1_024: (200, 120.0, 0.01), 27_648: (9_216, 600.0, 0.01)}
SLOW = ("slow",)


@functools.cache
def instance(gpus: int) -> PlacementInstance:
    return generate_round(gpus, ROUNDS[gpus][0], seed=1)


@functools.cache
def result(gpus: int, name: str, limit: float = 60.0) -> SolveResult:
    options = SolveOptions(time_limit=limit, seed=0)
    return solve(family("placement"), instance(gpus), method("placement", name), options=options)


def objective(gpus: int, name: str) -> float:
    value = result(gpus, name).objective
    assert value is not None
    return value


def exact(gpus: int) -> SolveResult:
    return result(gpus, "exact-blocks", ROUNDS[gpus][1])


def gap_to_bound(gpus: int, name: str) -> float:
    """Certified gap (%) of ``name`` to the bound `exact-blocks` proves on the round; the
    64-GPU round's must be proven optimal."""
    assert gpus != 64 or exact(gpus).status == Status.OPTIMAL
    value = exact(gpus).objective if name == "exact-blocks" else objective(gpus, name)
    return 100 * (certified_gap(value, exact(gpus).bound) or 0.0)


def one_cell_gap(name: str) -> float:
    found = result(256, name, ROUNDS[256][1])
    gap = certified_gap(found.objective, found.bound)
    return 100 * (1.0 if gap is None else gap)


def improvement(gpus: int) -> float:
    """How much better `pal+blocks` is than PAL (%, of PAL's objective)."""
    return 100 * (1 - objective(gpus, "pal+blocks") / objective(gpus, "pal"))


def table_row(gpus: int) -> list[Quote]:
    """The round's placed jobs, then (after the limit) the three gaps."""
    after = f"| {gpus:,} GPUs, {ROUNDS[gpus][0]:,} jobs asked ("
    marks, slack = ((), None) if gpus == 64 else (SLOW, ROUNDS[gpus][2])
    return [
        Quote(after, 0, lambda: len(instance(gpus).jobs)),
        *(
            Quote(after, i, partial(gap_to_bound, gpus, name), slack, marks)
            for i, name in enumerate(("exact-blocks", "pal", "pal+blocks"), start=2)
        ),
    ]


ONE_CELL = "The old `exact-milp` / `exact-cpsat` (one LV cell per job) stop at"
QUOTES: list[Quote] = [
    *(q for gpus in ROUNDS for q in table_row(gpus)),
    Quote(ONE_CELL, 0, lambda: one_cell_gap("exact-milp"), 1.0, SLOW),
    Quote(ONE_CELL, 1, lambda: one_cell_gap("exact-cpsat"), 1.0, SLOW),
    Quote("never worse than PAL, and measured", 0, lambda: improvement(256)),
    Quote("never worse than PAL, and measured", 1, lambda: improvement(1_024)),
    Quote("never worse than PAL, and measured", 2, lambda: improvement(27_648), marks=SLOW),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_exact_round_numbers(quote: Quote) -> None:
    check(quote)
