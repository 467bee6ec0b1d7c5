"""The placement page's section "Reproductions" and the planning page's table: each row recomputed by
the reproduction it names (``packgap figures NAME``; PAL's from ``../shared/traces``). Fig. 12
takes seconds; the 8-workload geomeans of Fig. 11 and 13, the per-round gaps and the planning
gaps take minutes (slow). Fig. 18's row is timings (measured, not asserted) beside the paper's
2.8 s."""

from __future__ import annotations

from functools import partial

import pytest

from packgap.paper_figures.pal.fig11 import PAPER_FIG11, PAPER_FIG13
from tests.readme.quotes import Quote, check, on, ours, paper, params, trace_path

#: The page whose numbers this module recomputes.
PAGE = "docs/families/placement.md"
PLANNING = "docs/families/planning.md"

TRACES, SLOW = ("traces",), ("traces", "slow")
FIG11 = "geomean avg JCT improvement over Tiresias"
FIG13 = "improvement over Tiresias at L_across 3"
FIG18 = "PAL median seconds per round, 256 GPUs"


def pal(name: str, quantity: str, mine: bool = True) -> float:
    """Our value (or the paper's) in a PAL reproduction ``--quick``, as the page quotes them."""
    trace_path("pal/sia_philly_workloads")
    return (ours if mine else paper)(name, quantity, True)


def planning(method: str) -> float:
    return ours("planning-gaps", f"{method} gap to the optimum at 32 groups")


def row(name: str) -> str:
    return f"| `{name}` |"


QUOTES: list[Quote] = [
    Quote(row("pal-fig11"), 1, lambda: pal("pal-fig11", f"pal {FIG11}"), marks=SLOW),
    Quote(row("pal-fig11"), 2, lambda: PAPER_FIG11["pal"][0]),
    Quote(row("pal-fig11"), 3, lambda: pal("pal-fig11", f"pm-first {FIG11}"), marks=SLOW),
    Quote(row("pal-fig11"), 4, lambda: PAPER_FIG11["pm-first"][0]),
    Quote(row("pal-fig12"), 3, lambda: pal("pal-fig12", "workload 5 mean wait, pal"), marks=TRACES),
    Quote(row("pal-fig12"), 4, lambda: pal("pal-fig12", "workload 5 mean wait, packed-sticky"), marks=TRACES),
    Quote(row("pal-fig13"), 3, lambda: pal("pal-fig13", f"pal {FIG13}"), marks=SLOW),
    Quote(row("pal-fig13"), 4, lambda: PAPER_FIG13["pal"][1]),
    Quote(row("pal-fig13"), 5, lambda: pal("pal-fig13", f"pm-first {FIG13}"), marks=SLOW),
    Quote(row("pal-fig13"), 6, lambda: PAPER_FIG13["pm-first"][1]),
    Quote(row("pal-fig18"), 2, lambda: pal("pal-fig18", FIG18, mine=False), marks=SLOW),
    *(
        Quote(row("pal-round-gaps"), i, partial(pal, "pal-round-gaps", f"{p} mean per-round gap"), slack, SLOW)
        for i, p, slack in ((3, "pal", 0.5), (4, "pm-first", 0.5), (5, "packed-non-sticky", 1.0))
    ),
    *(
        Quote(row("pal-summit"), i, partial(ours, "pal-summit", quantity, True), marks=("slow",))
        for i, quantity in (
            (2, "sampled rounds"),
            (3, "sampled rounds proven optimal by exact-blocks"),
            (4, "sampled rounds: PAL gap to the best exact placement, mean"),
            (5, "sampled rounds: PAL gap to the best exact placement, max"),
        )
    ),
    *(
        Quote(row("planning-gaps"), i, partial(planning, m), marks=("slow",), page=PLANNING)
        for i, m in enumerate(("mchp", "fifo", "edf"), start=1)
    ),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_reproduction_numbers(quote: Quote) -> None:
    check(quote)
