"""The packing page's section "CUCKOO reproductions" (``docs/families/packing.md``): Tables 4
and 6 recomputed (cheap); the online Tables 9-14 on the 521-job workload and the Muri-trace
deadline misses take minutes (slow); the papers' own values beside ours are checked against the
reproduction's record of the paper."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from functools import partial
from typing import Any

import pytest

from packgap.paper_figures.cuckoo.causes import SHORTEST_FIRST
from packgap.paper_figures.cuckoo.direction import JOBS
from packgap.paper_figures.cuckoo.table1 import JOBS as JOBS_TABLE1
from packgap.paper_figures.cuckoo.table1 import RELEASED
from packgap.paper_figures.cuckoo.table1 import SEEDS as SEEDS_TABLE1
from packgap.paper_figures.cuckoo.tables9_14 import PAPER_JOBS, PAPER_ONLINE
from tests.readme.quotes import Quote, check, on, ours, paper, params, quotes, reproduction_rows, trace_path

#: The page whose numbers this module recomputes.
PAGE = "docs/families/packing.md"

SLOW = ("slow",)
#: The size of the "issue" base of ``cuckoo-direction`` (``generate(N)``).
DIRECTION_JOBS = JOBS["issue", False][0]
#: The README's order of the online systems.
ONLINE = ("None", "Muri", "Muri-Hetero", "FIFO", "CUCKOO-Homo", "Muri-P", "Blossom", "EDF")


def table1(quantity: str) -> float:
    trace_path("muri/cluster_exp/cluster_trace.csv")
    return ours("cuckoo-table1", quantity)


def table1_paper(quantity: str) -> float:
    trace_path("muri/cluster_exp/cluster_trace.csv")
    return paper("cuckoo-table1", quantity)


def table1_queue(strategy: str) -> float:
    """The time-mean queue of ``strategy``'s Table 1 runs, seed mean."""
    from packgap.paper_figures.cuckoo.causes import mean

    trace_path("muri/cluster_exp/cluster_trace.csv")
    return mean([r["mean_queue"] for r in reproduction_rows("cuckoo-table1") if r["strategy"] == strategy])


@functools.cache
def released_groups() -> list[float]:
    """Jobs per group of Muri as released and of CUCKOO, then their time-mean queues (521 jobs,
    3 seeds, seed means)."""
    from packgap.paper_figures.cuckoo.causes import mean

    def per(system: str, value: Any) -> float:
        return mean([value(r) for r in online_rows() if r["kind"] == "run" and r["system"] == system])

    size, queue = (lambda r: r["jobs"] / r["groups"]), (lambda r: r["mean_queue"])
    return [per("Muri (released)", size), per("CUCKOO", size), per("Muri (released)", queue), per("CUCKOO", queue)]


def table4(quantity: str) -> float:
    return ours("cuckoo-table4", quantity)


def table6(quantity: str) -> float:
    return ours("cuckoo-table6", quantity)


def second_optimum() -> float:
    """The cost of Table 5's least-cost matchings when there are exactly two of them."""
    from packgap.analysis.kit import no_tick
    from packgap.paper_figures.cuckoo.table6 import table6 as rows

    costs = [r["cost"] for r in rows(False, no_tick) if r["kind"] == "optimum"]
    return float(costs[1]) if len(costs) == 2 else -1.0


def narrow_jobs() -> float:
    from packgap.paper_figures.cuckoo.muri_misses import muri_instance

    trace_path("muri/cluster_exp/cluster_trace.csv")
    return float(sum(j.gpus < 32 for j in muri_instance().jobs))


def paper_online(system: str, column: int = 0) -> float:
    """The paper's value for ``system``: the first of Tables 9-14 that lists it."""
    return next(t[system][column] for t in PAPER_ONLINE.values() if system in t)


@functools.cache
def online_rows() -> list[dict[str, Any]]:
    """Every system online on seeds 1-3 of the 521-job workload (references: lower bounds only,
    the page quotes no gap)."""
    from packgap.analysis.kit import no_tick
    from packgap.paper_figures.cuckoo.tables9_14 import online_rows as rows

    return rows((1, 2, 3), PAPER_JOBS, None, no_tick)


def online(system: str, key: str = "norm_jct") -> float:
    from packgap.paper_figures.cuckoo.causes import online_summary

    return online_summary(online_rows(), system)[key]


@functools.cache
def muri() -> Mapping[tuple[str, str], Mapping[str, Any]]:
    """The Muri-trace runs of ``cuckoo-direction`` (40 jobs, V100:32), by (scenario, method)."""
    from packgap.analysis.kit import no_tick
    from packgap.paper_figures.cuckoo.muri_misses import muri_misses

    trace_path("muri/cluster_exp/cluster_trace.csv")
    return {(r["scenario"], r["method"]): r for r in muri_misses(False, no_tick)}


def offline_late() -> float:
    """The late jobs of every heuristic pipeline offline: one value, or the check fails."""
    found = {r["late_jobs"] for (scenario, _), r in muri().items() if scenario == "offline, 1,000 s batches"}
    return found.pop() if len(found) == 1 else -1.0


def online_late() -> list[float]:
    return sorted(r["late_jobs"] for (scenario, _), r in muri().items() if scenario == "online, 60 s rounds")


def muri_run(scenario: str, method: str, key: str = "late_jobs") -> float:
    return float(muri()[scenario, method][key])


@functools.cache
def direction() -> list[dict[str, Any]]:
    """Per (base, mode, factor, value) of ``cuckoo-direction`` (about 12 minutes): seed means."""
    from packgap.paper_figures.cuckoo.direction import direction_summary

    trace_path("muri/cluster_exp/cluster_trace.csv")
    return direction_summary(reproduction_rows("cuckoo-direction"))


def variations() -> float:
    """One-factor variations: (factor, value) pairs away from a base, over both bases."""
    return len({(c["factor"], c["value"]) for c in direction() if c["factor"] != "base"})


def paper_online_ratios() -> list[float]:
    """None / DAB mean JCT online on the 521-job workload, per variation; each must be a win."""
    cells = [c for c in direction() if (c["base"], c["mode"]) == ("paper", "online")]
    assert all(c["direction"]["mean JCT"] == "helps" for c in cells)
    return sorted(c["none_over_dab"] for c in cells)


def never_helps_up_to() -> float:
    """The largest N such that packing helps in no cell of ``generate(N')``, N' <= N."""
    cells = [c for c in direction() if c["base"] == "issue" and c["factor"] in ("base", "jobs")]
    sizes = sorted({DIRECTION_JOBS if c["factor"] == "base" else c["value"] for c in cells})
    helps = {
        DIRECTION_JOBS if c["factor"] == "base" else c["value"] for c in cells if c["direction"]["mean JCT"] == "helps"
    }
    return float(max(n for n in sizes if all(m not in helps for m in sizes if m <= n)))


def median_eff() -> float:
    (base,) = {c["median_eff"] for c in direction() if (c["base"], c["factor"]) == ("issue", "base")}
    return base


def online_queues(helps: bool) -> list[float]:
    """The mean queue without packing of the online cells where packing helps (or does not)."""
    cells = [c for c in direction() if c["mode"] == "online"]
    return sorted(c["queue"] for c in cells if (c["direction"]["mean JCT"] == "helps") == helps)


def offline_favours_less() -> float:
    """1,000 (the batch window) when offline batches favour packing less than online everywhere."""
    online = {(c["base"], c["factor"], c["value"]): c["none_over_dab"] for c in direction() if c["mode"] == "online"}
    offline = [c for c in direction() if c["mode"] == "offline"]
    return 1000.0 if all(c["none_over_dab"] < online[c["base"], c["factor"], c["value"]] for c in offline) else -1.0


def seeds(pick: Any) -> float:
    from packgap.paper_figures.cuckoo.direction import SEEDS

    return float(pick(len(SEEDS[base, False]) for base in ("issue", "paper")))


CELLS = "cells equal to the paper's"
EXACT_PLAN = ("exact plan of the DAB groups", "dab+exact-plan")
MURI_SLOW = ("slow", "traces")
QUOTES: list[Quote] = [
    Quote("The AM estimator reproduces the paper's Table 4 (", 0, lambda: table4("AM iteration (BERT first)")),
    Quote("and Muri-P gives", 0, lambda: table4("Muri-P iteration")),
    *quotes(
        "* **Table 4** (AM, Alg. 1-2): all",
        [
            lambda: table4(CELLS),
            lambda: table4("AM iteration (BERT first)"),
            lambda: table4("Muri-P iteration"),
            lambda: table4("AM eff_value of the pair"),
            lambda: table4("Muri-P eff_value of the pair"),
        ],
    ),
    *(
        Quote("* **When does packing help?** (", i, value, marks=MURI_SLOW)
        for i, value in (
            (0, variations),
            (1, partial(seeds, min)),
            (2, partial(seeds, max)),
            (4, lambda: paper_online_ratios()[0]),
            (5, lambda: paper_online_ratios()[-1]),
            (7, never_helps_up_to),
            (10, lambda: 100 * (median_eff() - 1)),
            (11, lambda: 2 / median_eff()),
            (14, lambda: online_queues(helps=False)[-1]),
            (15, lambda: online_queues(helps=True)[0]),
            (16, offline_favours_less),
        )
    ),
    Quote("(None/DAB 1.06-2.58, paper", 0, lambda: paper_online("None")),
    Quote("* **Table 6** (MCHP, eq. 13-14): all", 0, lambda: table6(CELLS)),
    Quote("2 -> B1) costs", 0, lambda: table6("cost of MCHP's matching (1 -> A1, 2 -> B1)")),
    Quote("second matching ties at", 0, second_optimum),
    Quote("* **Tables 9-14, online** (", 0, lambda: PAPER_JOBS),
    *(Quote("normalised JCT ours (paper): None", 2 * i, partial(online, s), marks=SLOW) for i, s in enumerate(ONLINE)),
    *(Quote("normalised JCT ours (paper): None", 2 * i + 1, partial(paper_online, s)) for i, s in enumerate(ONLINE)),
    Quote("system of that list (CUCKOO", 0, lambda: 100 * online("CUCKOO", "satisfaction"), marks=SLOW),
    Quote("system of that list (CUCKOO", 1, lambda: 100 * paper_online("CUCKOO", 1)),
    *(
        Quote("CUCKOO's mean JCT drops to", i, value, marks=SLOW)
        for i, value in enumerate(
            (
                partial(online, SHORTEST_FIRST),
                lambda: 100 * online(SHORTEST_FIRST, "satisfaction"),
                partial(online, "EDF"),
                lambda: 100 * online("EDF", "satisfaction"),
            )
        )
    ),
    *(
        Quote("* **Table 1** (Muri against no packing on Muri's testbed trace:", i, value, marks=MURI_SLOW)
        for i, value in (
            (0, lambda: JOBS_TABLE1),
            (3, lambda: SEEDS_TABLE1[0]),
            (4, lambda: SEEDS_TABLE1[-1]),
            (6, lambda: table1("Muri / Non-packing average JCT")),
            (7, lambda: table1_paper("Muri / Non-packing average JCT")),
            (8, lambda: 100 * table1("Muri deadline satisfaction")),
            (9, lambda: 100 * table1("Non-packing deadline satisfaction")),
            (10, lambda: 100 * table1_paper("Muri deadline satisfaction")),
            (11, lambda: 100 * table1_paper("Non-packing deadline satisfaction")),
        )
    ),
    *quotes(
        "released (`muri-s`, Muri's own preemptive simulator and time model) runs x",
        [
            lambda: table1("Muri (released) / Non-packing (released) average JCT"),
            lambda: RELEASED["Non-packing (released)"]["packing_num"],
            lambda: 100 * table1("Muri (released) deadline satisfaction"),
            lambda: 100 * table1("Non-packing (released) deadline satisfaction"),
            lambda: table1_queue("Muri (released)"),
            lambda: table1_queue("Non-packing (released)"),
        ],
        marks=MURI_SLOW,
    ),
    *quotes(
        "  Muri as released (`muri+fifo`, blind as Muri",
        [
            partial(online, "Muri (released)"),
            lambda: paper_online("Muri (released)"),
            lambda: 100 * online("Muri (released)", "satisfaction"),
            lambda: 100 * paper_online("Muri (released)", 1),
        ],
        marks=SLOW,
    ),
    *(
        Quote(
            "beating CUCKOO against Tables 9 and 14: it starts",
            i,
            partial(lambda k: released_groups()[k], i),
            marks=SLOW,
        )
        for i in range(4)
    ),
    *quotes(
        "* **Muri trace** (40 jobs, V100:32): all",
        [
            lambda: len([k for k in muri() if k[0] == "offline, 1,000 s batches"]),
            offline_late,
            lambda: muri_run("offline, 1,000 s batches", "dab+mchp", key="doomed"),
        ],
        marks=MURI_SLOW,
    ),
    *quotes(
        "The exact plan of the same groups misses",
        [lambda: muri_run(*EXACT_PLAN), lambda: muri_run(*EXACT_PLAN, key="idle_gpu_h")],
        marks=MURI_SLOW,
    ),
    *quotes(
        "without the 32-GPU jobs",
        [lambda: muri_run("offline, without the 32-GPU jobs", "dab+mchp"), narrow_jobs],
        marks=MURI_SLOW,
    ),
    *quotes(
        "re-planning online every 60 s, DAB+MCHP still misses",
        [lambda: muri_run("online, 60 s rounds", "dab+mchp"), lambda: online_late()[0], lambda: online_late()[-1]],
        marks=MURI_SLOW,
    ),
    *quotes(
        "Preemption saves them: Muri's own simulator (`muri-s`, its own time model) misses",
        [
            lambda: muri_run("Muri's own simulator, preemptive", "muri-s"),
            lambda: muri_run("Muri's own simulator, preemptive", "muri-s, packing_num=1"),
        ],
        marks=MURI_SLOW,
    ),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_cuckoo_numbers(quote: Quote) -> None:
    check(quote)
