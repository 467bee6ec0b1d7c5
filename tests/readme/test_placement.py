"""The placement page's section "Whole traces" (``docs/families/placement.md``): Sia-Philly
workload-1 simulations (the blox replay, each policy in the paper's semantics: seconds), the run
with each round placed by `exact-blocks` (minutes), the 8-workload geomeans of Fig. 11 and the
per-round gaps along workload-1 (minutes).
Every quote reads ``../shared/traces``."""

from __future__ import annotations

import functools
from functools import partial
from typing import Any

import pytest

from packgap.analysis.kit import no_tick
from packgap.analysis.registry import kit, trace_builder
from packgap.paper_figures.pal.fig11 import PAPER_FIG11
from tests.readme.quotes import Quote, check, on, ours, params, quotes, trace_path

#: The page whose numbers this module recomputes.
PAGE = "docs/families/placement.md"

WORKLOAD = "pal/sia_philly_workloads/workload-1.csv"
FACTORS = "pal/blox-sim-inputs/gpu_perfvar_64gpu_seed42.csv"
#: The README's order of the policies in the paper's semantics.
POLICIES = ("pal", "pm-first", "packed-non-sticky", "packed-sticky", "random-non-sticky", "random-sticky")
#: Per-round gaps: the README's order, every 20th round, exact-blocks at 10 s a round; primal
#: gaps to the exact answer, which rounds that the limit stops leave a little smaller.
GAP_POLICIES = ("pal", "pm-first", "packed-non-sticky", "random-non-sticky")
EXACT_LIMIT_S = 2.0
TRACES, SLOW = ("traces",), ("traces", "slow")
FIG11 = "geomean avg JCT improvement over Tiresias"


@functools.cache
def trace(replay: str) -> Any:
    """Workload-1 as `instances from-trace pal-sia` builds it: the blox replay, or the paper's
    semantics with factors sampled with seed 3."""
    options = {"gpu_factors": trace_path(FACTORS), "replay": "blox"} if replay == "blox" else {"seed": 3}
    return trace_builder("pal-sia").build(trace_path(WORKLOAD), options)


@functools.cache
def simulate(
    replay: str, placement: str, round_gaps: int | None = None, limit: float | None = None
) -> dict[str, float]:
    """The metrics `packgap simulate` prints (FIFO; ``round_gaps``: every N-th round solved exactly)."""
    simulation = kit("placement").simulation
    assert simulation is not None
    options = {"scheduler": "fifo", "placement": placement, "round_gaps": round_gaps}
    return simulation.run(trace(replay), options, 0, limit, no_tick)["metrics"]


def mean_jct(replay: str, placement: str, limit: float | None = None) -> float:
    return simulate(replay, placement, None, limit)["mean_jct_s"]


def pal_gap_to_exact() -> float:
    """PAL's end-to-end gap (%) to the run that places every round by `exact-blocks`."""
    pal, exact = mean_jct("paper", "pal"), mean_jct("paper", "exact", EXACT_LIMIT_S)
    return 100 * (pal - exact) / pal


def round_gap(placement: str, key: str) -> float:
    return 100 * simulate("paper", placement, 20, 10.0)[key]


def geomean(policy: str) -> float:
    trace_path(WORKLOAD)
    return 1 - ours("pal-fig11", f"{policy} {FIG11}", True) / 100


SEMANTICS = "in the paper's semantics (`w1p.json`: factors sampled with seed 3) PAL"
GAPS = "(every 20th round, `--round-gaps 20 --time-limit 10`, one run per policy): PAL"
EXACT = "`exact-blocks` (2 s limit per round; the result moves with load) and gives"
QUOTES: list[Quote] = [
    Quote(
        "the blox replay of Packed-Sticky (`w1.json`) gives a mean JCT of",
        0,
        lambda: mean_jct("blox", "packed-sticky"),
        marks=TRACES,
    ),
    *quotes(SEMANTICS, [partial(mean_jct, "paper", p) for p in POLICIES], marks=TRACES),
    Quote(EXACT, 0, lambda: mean_jct("paper", "exact", EXACT_LIMIT_S), marks=SLOW, within=500.0),
    Quote("end to end PAL's gap to per-round-optimal placement is", 0, pal_gap_to_exact, marks=SLOW, within=2.0),
    *quotes(
        "Over the 8 workloads PAL's geomean mean JCT is",
        [lambda: geomean("pal"), lambda: geomean("pm-first")],
        marks=SLOW,
    ),
    *quotes(
        "geomean mean JCT is 0.568 of Tiresias' and PM-First's 0.618 (the paper:",
        [lambda: PAPER_FIG11["pal"][0], lambda: PAPER_FIG11["pm-first"][0]],
    ),
    *(
        Quote(GAPS, 2 * i + offset, partial(round_gap, p, key), slack, SLOW)
        for i, p in enumerate(GAP_POLICIES)
        for offset, key, slack in ((0, "mean_round_gap", 0.5), (1, "max_round_gap", 2.0))
    ),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_placement_numbers(quote: Quote) -> None:
    check(quote)
