"""The README's section "Sharing (SJF-BSBF)": each policy's mean excess over the proven
non-preemptive optimum (6 jobs: cheap; 8 jobs: slow) and the Pollux-trace load study (slow)."""

from __future__ import annotations

import functools
import statistics

import pytest

from tests.readme.quotes import Quote, check, ours, params, quotes

POLICIES = ("FIFO", "SJF", "Tiresias", "SJF-FFS", "SJF-BSBF")
SEEDS = range(1, 11)


@functools.cache
def excess(jobs: int) -> dict[str, float]:
    from packgap.analysis.sharing.exact_scaling import mean_excess, measure

    rows = [measure(jobs, seed, 60.0) for seed in SEEDS]
    assert all(r.proven for r in rows), "every seed proven, as the README says"
    return mean_excess(rows, jobs)


def row(jobs: int, marks: tuple[str, ...]) -> list[Quote]:
    values = [functools.partial(lambda n, p: 100 * excess(n)[p], jobs, p) for p in POLICIES]
    return quotes(f"| {jobs} jobs, 16 GPUs |", values, marks=marks)


def reduction(load: float, other: str) -> float:
    return 100 * ours("sjf-bsbf-pollux-load", f"SJF-BSBF's JCT reduction vs {other} at {load:g}x")


POLLUX = "There SJF-BSBF's mean JCT is"


def crossover(quantity: str) -> float:
    return ours("sjf-bsbf-crossover", quantity)


def cell(load: float, xi: str) -> float:
    return 100 * crossover(f"SJF-BSBF's JCT reduction vs SJF at {load:g}x, xi {xi}")


@functools.cache
def certified(jobs: int) -> tuple[float, float]:
    """Mean certified gap (%) of the best policy with the cheap bound and with the rate LP."""
    from packgap.analysis.sharing.certified import measure

    rows = [measure(jobs, seed) for seed in SEEDS]
    return 100 * statistics.fmean(r.cheap_gap for r in rows), 100 * statistics.fmean(r.gap for r in rows)


CERTIFIED = "Mean certified gap of the best policy on the instances of the table above, seeds"
FREE = "Where sharing is nearly free (xi = 1) SJF-BSBF's mean JCT is"
QUOTES: list[Quote] = [
    *row(6, ()),
    *row(8, ("slow",)),
    *quotes(
        POLLUX,
        [
            lambda: reduction(0.5, "sjf"),
            lambda: 0.5,
            lambda: reduction(2.0, "sjf"),
            lambda: 2.0,
            lambda: reduction(0.5, "tiresias"),
            lambda: reduction(2.0, "tiresias"),
        ],
        marks=("slow", "traces"),
    ),
    *quotes(FREE, [lambda: cell(1.0, "1"), lambda: 1.0, lambda: cell(2.0, "1"), lambda: 2.0], marks=("slow",)),
    *quotes("at the generator's per-pair xi it is", [lambda: -cell(1.0, "U(1.1,2)")], marks=("slow",)),
    *quotes("SJF's at 1x (the paper:", [lambda: 100 * (1 - 1.01 / 1.25)]),
    *quotes(
        CERTIFIED,
        [
            lambda: 1.0,
            lambda: 10.0,
            lambda: 6.0,
            lambda: certified(6)[0],
            lambda: certified(6)[1],
            lambda: 8.0,
            lambda: certified(8)[0],
            lambda: certified(8)[1],
        ],
        marks=("slow",),
    ),
    *quotes(
        "tips the order, and barely: SJF-BSBF's mean JCT",
        [
            lambda: crossover("SJF-BSBF mean JCT, xi from lucid"),
            lambda: crossover("SJF mean JCT, xi from lucid"),
            lambda: 100 * (1 - 1.01 / 1.25),
        ],
        marks=("slow", "traces"),
    ),
    Quote(
        "remaining solo time,", 0, lambda: crossover("wait Theorem 1 assumes at a shared start (mean)"), marks=("slow",)
    ),
    Quote(
        "while the same jobs queue", 0, lambda: crossover("the same jobs' queueing under SJF (mean)"), marks=("slow",)
    ),
]


@pytest.mark.parametrize("quote", params(QUOTES))
def test_sharing_numbers(quote: Quote) -> None:
    check(quote)
