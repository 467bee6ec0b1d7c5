"""The packing page's section "The heuristics against the exact joint optimum"
(``docs/families/packing.md``): both tables of `packgap compare` (the generated
instance and the Muri-derived one) and the paragraph under them.

Heuristic rows and exact rows that finish well inside their limit are deterministic and are
compared at the printed precision; a gap is taken to the instance's optimum (on the Muri
instance the one its `exact-ti` row quotes, which that row checks). The rows the 30 s limit
stops (incumbents and gaps that move with machine load) are checked under a generous 60 s
limit to be at most the quoted value plus a stated slack, and the Muri optimum (`exact-ti`
takes 10-20 s) under 120 s; those are slow.
"""

from __future__ import annotations

import functools

import pytest

from packgap.analysis.registry import family, kit, method, trace_builder
from packgap.analysis.run import solve
from packgap.instances.packing.generator import generate
from packgap.result import SolveResult, Status, certified_gap, primal_gap
from packgap.solvers.outcome import SolveOptions
from tests.readme.quotes import Quote, check, on, params, quoted, text, trace_path

#: The page whose numbers this module recomputes.
PAGE = "docs/families/packing.md"

GENERATED, MURI = "packing-n8-s3", "muri-cluster_trace-s1"
METHODS = [m.name for m in kit("packing").methods]
#: Muri-instance rows stopped by the 30 s limit, checked slowly at 60 s with a slack (points).
TIMED_OUT = {"none+exact-plan": 0.5, "exact-milp": 2.0, "exact-cpsat": 2.0}
EXACT_PLAN = ("dab+exact-plan", "blossom+exact-plan", "none+exact-plan")
TRACES, SLOW = ("traces",), ("traces", "slow")


@functools.cache
def instance(name: str) -> object:
    if name == MURI:
        path = trace_path("muri/cluster_exp/cluster_trace.csv")
        return trace_builder("muri").build(path, {"max_jobs": 10, "gpu_types": "V100:16", "seed": 1})
    return generate(8, seed=3)


@functools.cache
def result(name: str, method_name: str, limit: float = 30.0) -> SolveResult:
    options = SolveOptions(time_limit=limit)
    return solve(family("packing"), instance(name), method("packing", method_name), options=options)


def objective(name: str, method_name: str, limit: float = 30.0) -> float:
    found = result(name, method_name, limit).objective
    assert found is not None
    return found


def bound(name: str, method_name: str, limit: float = 30.0) -> float:
    found = result(name, method_name, limit).bound
    assert found is not None
    return found


def proven(name: str, method_name: str, limit: float = 30.0) -> float:
    """The optimum ``method_name`` proves: status optimal, or the value fails the check."""
    return objective(name, method_name, limit) if result(name, method_name, limit).status == Status.OPTIMAL else -1


def optimum(name: str) -> float:
    """The generated instance's optimum proven by `exact-ti`; the Muri one as its row quotes it."""
    return proven(GENERATED, "exact-ti") if name == GENERATED else quoted(row(MURI, "exact-ti"), 1, PAGE)[0]


def gap(name: str, method_name: str, limit: float = 30.0) -> float:
    """Primal gap (%) to the optimum, as `compare` prints it."""
    return 100 * (primal_gap(objective(name, method_name, limit), optimum(name)) or 0.0)


def own_gap(name: str, method_name: str, limit: float = 30.0) -> float:
    """Gap (%) of a method's answer to its own bound."""
    return 100 * (certified_gap(objective(name, method_name, limit), bound(name, method_name, limit)) or 0.0)


def row(name: str, method_name: str) -> str:
    return f"| {name} | {method_name} |"


def table_row(name: str, m: str) -> list[Quote]:
    """A row's objective, certified and best-found gap (both to the optimum, the best proven bound
    and the best answer on either instance); an exact row's own bound too."""
    marks = TRACES if name == MURI else ()
    if not method("packing", m).exact:
        if name == MURI and m in TIMED_OUT:
            return [Quote(row(name, m), 0, lambda: objective(name, m, 60.0), TIMED_OUT[m], SLOW)]
        return [
            Quote(row(name, m), 0, lambda: objective(name, m), marks=marks),
            Quote(row(name, m), 1, lambda: gap(name, m), marks=marks),
            Quote(row(name, m), 2, lambda: gap(name, m), marks=marks),
        ]
    if name == MURI and m in TIMED_OUT:
        return [
            Quote(row(name, m), 1, lambda: bound(name, m, 60.0), marks=SLOW),
            Quote(row(name, m), 2, lambda: gap(name, m, 60.0), TIMED_OUT[m], SLOW),
        ]
    limit, exact_marks = (120.0, SLOW) if name == MURI else (30.0, ())
    status = text(PAGE).split(row(name, m))[1].split("|")[1].strip()
    return [
        Quote(
            row(name, m), 0, lambda: (proven if status == "optimal" else objective)(name, m, limit), marks=exact_marks
        ),
        Quote(row(name, m), 1, lambda: bound(name, m, limit), marks=exact_marks),
        Quote(row(name, m), 2, lambda: gap(name, m, limit), marks=exact_marks),
        Quote(row(name, m), 3, lambda: gap(name, m, limit), marks=exact_marks),
    ]


def timed_out_gaps() -> list[float]:
    return sorted(own_gap(MURI, m, 60.0) for m in ("exact-milp", "exact-cpsat"))


AFTER_TABLE = "grid that rounds only in the relaxing direction, leaves"
QUOTES: list[Quote] = [
    *(q for name in (GENERATED, MURI) for m in METHODS for q in table_row(name, m)),
    Quote(AFTER_TABLE, 0, lambda: own_gap(GENERATED, "exact-cpsat")),
    Quote(AFTER_TABLE, 1, lambda: gap(GENERATED, "dab+mchp")),
    Quote(AFTER_TABLE, 2, lambda: max(gap(GENERATED, m) for m in EXACT_PLAN)),
    Quote("the time-indexed `exact-ti` proves the optimum,", 0, lambda: proven(MURI, "exact-ti", 120.0), marks=SLOW),
    Quote("`exact-cpsat` stop with their own bounds", 0, lambda: timed_out_gaps()[0], 2.0, SLOW),
    Quote("`exact-cpsat` stop with their own bounds", 1, lambda: timed_out_gaps()[1], 2.0, SLOW),
    Quote(
        "(bound from the relaxation). DAB+MCHP's gap to the optimum is", 0, lambda: gap(MURI, "dab+mchp"), marks=TRACES
    ),
    Quote("DAB's own groups planned exactly", 0, lambda: gap(MURI, "dab+exact-plan"), marks=TRACES),
    Quote("no packing with exact planning", 0, lambda: gap(MURI, "none+exact-plan", 60.0), 0.5, SLOW),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_packing_numbers(quote: Quote) -> None:
    check(quote)


def test_every_packing_method_has_a_row_in_each_table() -> None:
    for name in (GENERATED, MURI):
        assert [m for m in METHODS if row(name, m) in text(PAGE)] == METHODS
