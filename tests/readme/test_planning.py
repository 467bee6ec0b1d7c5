"""The planning page (``docs/families/planning.md``): each planner's objective and gap to the
optimum on the demo instance, the optimum all three exact methods prove, the exact MILP on
binding deadlines (section "Exactness and scale") and the gaps over seeds."""

from __future__ import annotations

import dataclasses
import functools
from functools import partial

import pytest

from packgap.analysis.registry import family, method
from packgap.analysis.run import solve
from packgap.instances.planning.generator import generate
from packgap.result import SolveResult, Status, primal_gap
from packgap.solvers.outcome import SolveOptions
from tests.readme.quotes import Quote, check, on, params, quotes, reproduction_rows

#: The page whose numbers this module recomputes.
PAGE = "docs/families/planning.md"

CLUSTER = (("A800", 1), ("RTX4090", 2))


@functools.cache
def demo(name: str) -> SolveResult:
    instance = generate(8, seed=7, gpu_types=CLUSTER)
    return solve(family("planning"), instance, method("planning", name), options=SolveOptions(time_limit=30.0))


def optimum() -> float:
    """The demo's optimum, proven by every exact method (each must agree)."""
    found = {demo(m).objective for m in ("exact-flow", "exact-cpsat", "exact-milp")}
    assert all(demo(m).status == Status.OPTIMAL for m in ("exact-flow", "exact-cpsat", "exact-milp"))
    assert len(found) == 1
    return float(found.pop())  # type: ignore[arg-type]


def objective(name: str) -> float:
    value = demo(name).objective
    assert value is not None
    return value


def gap(name: str) -> float:
    return 100 * (primal_gap(objective(name), optimum()) or 0.0)


@functools.cache
def squeezed(groups: int) -> SolveResult:
    """The demo cluster's instance of seed 1 with deadlines squeezed to 15 % (tardiness counts)."""
    inst = generate(groups, 1, gpu_types=CLUSTER)
    inst = dataclasses.replace(
        inst, groups=tuple(dataclasses.replace(g, deadline=round(g.deadline * 0.15)) for g in inst.groups)
    )
    return solve(family("planning"), inst, method("planning", "exact-milp"), options=SolveOptions(time_limit=30.0))


def proven(groups: int) -> float:
    """``groups`` when the MILP proves the squeezed instance optimal (the page lists sizes)."""
    return float(groups) if squeezed(groups).status == Status.OPTIMAL else -1.0


def planning_gap(method: str, which: int) -> float:
    """The least (``which`` 0) or largest (-1) of ``method``'s mean gaps (%) to the optimum at
    4, 8 and 12 groups in `planning-gaps`."""
    from packgap.paper_figures.gaps.plots_planning import gaps, mean

    rows = reproduction_rows("planning-gaps")
    assert {r["status"] for r in rows if r["method"].startswith("exact")} == {"optimal"}
    return sorted(100 * mean(gaps(rows, method, n)) for n in (4, 8, 12))[which]


#: The README's one-change-at-a-time list: the position of each ratio among the numbers after
#: its opening words (w = 0, w = 10 and eq. 13 are numbers too), and the planning-gaps method.
MCHP_CHANGES = ((0, "mchp w=0"), (2, "mchp w=10"), (4, "mchp tie-break none"), (5, "mchp shortest-first"))
MCHP_CHANGES += ((6, "positional cost"), (8, "edf"))


def one_change(method: str) -> float:
    """``method``'s objective over MCHP's at 12 groups in the quick planning-gaps rows."""
    from packgap.paper_figures.gaps.planning import _to_mchp

    return _to_mchp(reproduction_rows("planning-gaps", True), method, 12)


SEEDS = "every instance proven optimal), the mean gap to the optimum is"
DEMO = "On the demo instance (8 groups, A800 x1 + RTX4090 x2, seed 7) the table reads: MCHP"
QUOTES: list[Quote] = [
    *quotes(
        DEMO,
        [
            lambda: objective("mchp"),
            lambda: gap("mchp"),
            lambda: objective("fifo"),
            lambda: gap("fifo"),
            lambda: objective("edf"),
            lambda: gap("edf"),
            optimum,
        ],
    ),
    *(
        Quote(SEEDS, 2 * i + j, partial(planning_gap, m, end), marks=("slow",))
        for i, m in enumerate(("mchp", "fifo", "edf"))
        for j, end in enumerate((0, -1))
    ),
    *quotes("with deadlines squeezed to 15 % (seed 1),", [partial(proven, g) for g in (8, 12, 16, 20)]),
    *(Quote("MCHP's objective over its own is", i, partial(one_change, m)) for i, m in MCHP_CHANGES),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_planning_numbers(quote: Quote) -> None:
    check(quote)
