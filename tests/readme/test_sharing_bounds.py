"""The sharing page's certified gaps (``docs/families/sharing.md``): each bound's distance from
the proven non-preemptive optimum, the best policy's certified gaps against the cheap bound, the
rate LP, its MILP and the class bound, and the preemptive ceiling's floors (mostly slow)."""

from __future__ import annotations

import functools
import statistics
from typing import TYPE_CHECKING

import pytest

from packgap.errors import PackgapError
from tests.readme.quotes import Quote, check, on, params, quotes
from tests.readme.test_sharing import PAGE, SEEDS

if TYPE_CHECKING:
    from packgap.analysis.sharing.certified import Split


@functools.cache
def certified(jobs: int) -> tuple[float, float]:
    """Mean certified gap (%) of the best policy with the cheap bound and with the rate LP."""
    from packgap.analysis.sharing.certified import measure

    rows = [measure(jobs, seed) for seed in SEEDS]
    return 100 * statistics.fmean(r.cheap_gap for r in rows), 100 * statistics.fmean(r.gap for r in rows)


@functools.cache
def generated() -> float:
    """Mean certified gap (%) of the best policy on 240-job generated workloads, seeds 1-5 (the
    LP within its 60 s; past it the cheap bound, which the LP beat on seed 2 only)."""
    from packgap.analysis.sharing.certified import measure

    return 100 * statistics.fmean(measure(240, seed, True).gap for seed in range(1, 6))


@functools.cache
def pollux_lp() -> tuple[float, float, float, float]:
    """Pollux's 1x workload 1 without a time limit: the cheap and LP bounds (s) and the best
    policy's certified gap (%) against each."""
    from packgap.analysis.sharing import lp_bound
    from packgap.analysis.sharing.certified import POLICIES, pollux
    from packgap.sharing import FAMILY

    try:
        inst = pollux(1)
    except PackgapError as exc:
        pytest.skip(str(exc))
    n, arrivals = len(inst.jobs), sum(j.arrival for j in inst.jobs)
    out = lp_bound.solve(inst, None, None)
    cheap, lp = (out.cheap_sum - arrivals) / n, (out.completion_sum - arrivals) / n
    best = min(FAMILY.evaluate(inst, p(inst)).objective for p in POLICIES.values())
    return cheap, lp, 100 * (best - cheap) / best, 100 * (best - lp) / best


@functools.cache
def splits(jobs: int) -> list[Split]:
    """The certified gap split at the proven optimum, seeds 1-10 (each search given 600 s so
    that every seed is proven)."""
    from packgap.analysis.sharing.certified import split as measure

    rows = [measure(jobs, seed, 600.0) for seed in SEEDS]
    proven = [r for r in rows if r is not None]
    assert len(proven) == len(rows), "every seed proven"
    return proven


def split(jobs: int) -> tuple[float, float]:
    """The best policy's mean excess over the optimum and the bound's mean shortfall below it (%)."""
    rows = splits(jobs)
    return 100 * statistics.fmean(r.above for r in rows), 100 * statistics.fmean(r.below for r in rows)


@functools.cache
def class_below(jobs: int, blocks: int | None = None, what: str = "class") -> float:
    """The class bound's mean shortfall below the proven non-preemptive optimum (%), seeds 1-10,
    with blocks of up to ``blocks`` jobs (None: ``measure_class``'s default); ``what`` "run LP"
    or "root" (without blocks) for that bound alone."""
    from packgap.analysis.sharing import lp_bound
    from packgap.analysis.sharing.certified import measure_class
    from packgap.analysis.sharing.exact_scaling import instance
    from packgap.models.sharing.node_bound import root_bound

    def bound(seed: int) -> float:
        inst = instance(jobs, seed)
        n, arrivals = len(inst.jobs), sum(j.arrival for j in inst.jobs)
        if what == "run LP":
            found = lp_bound.solve(inst, None, None, runs=True, blocks=0).lp_sum
            assert found is not None
            return (found - arrivals) / n
        if what == "root":
            return (root_bound(inst) - arrivals) / n
        if blocks is None:
            return measure_class(inst, seed).class_s
        return lp_bound.average_jct_class_bound(inst, time_limit=None, blocks=blocks)[0]

    return 100 * statistics.fmean(1 - bound(s.gap.seed) / s.optimum_s for s in splits(jobs))


def block_row(jobs: int) -> list[Quote]:
    """A row of the page's table of the class bound by its largest block (none, 2-5)."""
    values = [functools.partial(class_below, jobs, size) for size in (0, 2, 3, 4, 5)]
    return quotes(f"| {jobs} jobs |", values, marks=("slow",))


@functools.cache
def certified_milp(jobs: int) -> float:
    """Mean certified gap (%) of the best policy with the completion-slot MILP, seeds 1-10."""
    from packgap.analysis.sharing.certified import measure

    return 100 * statistics.fmean(measure(jobs, seed, milp=True).gap for seed in SEEDS)


@functools.cache
def floors(kind: str) -> tuple[float, ...]:
    """Per instance, (best policy - the ceiling's best preemptive schedule) / best policy (%):
    ``kind`` "6" or "8" (the page's instances, seeds 1-10), "240" (generated, seeds 1-5) or
    "pollux" (1x files 1-8)."""
    from packgap.analysis.sharing.ceiling import preemptive_ceiling
    from packgap.analysis.sharing.certified import POLICIES, pollux
    from packgap.analysis.sharing.exact_scaling import instance
    from packgap.instances.sharing.generator import generate
    from packgap.sharing import FAMILY

    if kind == "pollux":
        try:
            cases = [pollux(seed) for seed in range(1, 9)]
        except PackgapError as exc:
            pytest.skip(str(exc))
    else:
        cases = (
            [generate(240, seed, workload="v1") for seed in range(1, 6)]
            if kind == "240"
            else [instance(int(kind), s) for s in SEEDS]
        )
    out = []
    for inst in cases:
        best = min(FAMILY.evaluate(inst, p(inst)).objective for p in POLICIES.values())
        out.append(100 * max(0.0, best - preemptive_ceiling(inst)) / best)
    return tuple(out)


@functools.cache
def exclusive_milp(seed: int) -> float:
    """The MILP's bound (average JCT, s) on the page's 6-job instance with C = 1 (no sharing)."""
    import dataclasses

    from packgap.analysis.sharing import lp_bound
    from packgap.analysis.sharing.exact_scaling import instance

    inst = instance(6, seed)
    inst = dataclasses.replace(inst, cluster=dataclasses.replace(inst.cluster, max_jobs_per_gpu=1))
    out = lp_bound.solve(inst, None, None, milp=True)
    assert out.lp_sum is not None
    return (out.lp_sum - sum(j.arrival for j in inst.jobs)) / len(inst.jobs)


@functools.cache
def exclusive_ceiling(seed: int) -> float:
    """The ceiling's best preemptive schedule (s) on the same instance with C = 1."""
    import dataclasses

    from packgap.analysis.sharing.ceiling import preemptive_ceiling
    from packgap.analysis.sharing.exact_scaling import instance

    inst = instance(6, seed)
    return preemptive_ceiling(dataclasses.replace(inst, cluster=dataclasses.replace(inst.cluster, max_jobs_per_gpu=1)))


def preempted(jobs: int) -> float:
    """The most the ceiling's preemptive schedules go below the proven optimum (%)."""
    return 100 * max(s.preempted_best for s in splits(jobs))


MILP = "one thread, 60 s): mean certified gap of the best policy, seeds"
FLOOR = "schedules lie below the best policy by"
EXCLUSIVE = "meets those schedules (6 jobs, seeds 1, 5, 9 and 10:"
CERTIFIED = "Mean certified gap of the best policy on the instances of the table above, seeds"


QUOTES: list[Quote] = [
    *quotes(
        "(`analysis/sharing/ceiling.py`) do, by up to",
        [
            lambda: preempted(6),
            lambda: 6.0,
            lambda: 5.0,
            lambda: splits(6)[4].gap.preemptive_s,
            lambda: splits(6)[4].optimum_s,
            lambda: preempted(8),
            lambda: 8.0,
            lambda: 1.0,
        ],
        marks=("slow",),
    ),
    *quotes(MILP, [lambda: 1.0, lambda: 10.0, lambda: 6.0]),
    Quote(MILP, 3, lambda: certified_milp(6), slack=0.5, marks=("slow",)),
    Quote(MILP, 4, lambda: certified(6)[1], marks=("slow",)),
    Quote(MILP, 5, lambda: 8.0),
    Quote(MILP, 6, lambda: certified_milp(8), slack=0.5, marks=("slow",)),
    Quote(MILP, 7, lambda: certified(8)[1], marks=("slow",)),
    *quotes(
        FLOOR, [lambda: statistics.fmean(floors("6")), lambda: 6.0, lambda: statistics.fmean(floors("8")), lambda: 8.0]
    ),
    Quote(FLOOR, 4, lambda: statistics.fmean(floors("240")), marks=("slow",)),
    Quote(FLOOR, 8, lambda: floors("240")[0], marks=("slow",)),
    Quote(FLOOR, 10, lambda: statistics.fmean(floors("pollux")), marks=("slow", "traces")),
    *quotes(
        EXCLUSIVE,
        [
            *(functools.partial(exclusive_milp, seed) for seed in (1, 5, 9, 10)),
            *(functools.partial(exclusive_ceiling, seed) for seed in (1, 5, 9, 10)),
        ],
        marks=("slow",),
    ),
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
    Quote("On 240-job / 64-GPU generated workloads it stays near the cheap bound's", 1, generated, marks=("slow",)),
    *quotes(
        "On Pollux's 1x workload 1 (160 jobs) the LP raises the bound on the average JCT from",
        [lambda: pollux_lp()[0], lambda: pollux_lp()[1]],
        marks=("slow", "traces"),
    ),
    *quotes(
        "the best policy's certified gap there from",
        [lambda: pollux_lp()[2], lambda: pollux_lp()[3]],
        marks=("slow", "traces"),
    ),
    *quotes(
        "Split at the proven non-preemptive optimum (`--optimum`, seeds 1-10): the best policy lies",
        [lambda: split(6)[0], lambda: 6.0, lambda: split(8)[0], lambda: 8.0, lambda: split(6)[1], lambda: split(8)[1]],
        marks=("slow",),
    ),
    *block_row(6),
    *block_row(8),
    *quotes(
        "Before the table, the run LP alone lay",
        [
            lambda: class_below(6, what="run LP"),
            lambda: class_below(8, what="run LP"),
            lambda: class_below(6, what="root"),
            lambda: class_below(8, what="root"),
            lambda: split(6)[1],
            lambda: split(8)[1],
        ],
        marks=("slow",),
    ),
    *quotes("Issue 35's target of 2 % is met at 6 jobs (", [lambda: class_below(6)], marks=("slow",)),
    Quote("is met at 6 jobs (1.90 %) and not at 8 (", 0, lambda: class_below(8), marks=("slow",)),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_sharing_numbers(quote: Quote) -> None:
    check(quote)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [6, 8])
def test_tiresias_never_goes_below_the_optimum_on_the_readme_instances(jobs: int) -> None:
    # Tiresias's 2D-LAS never does; the page's "by up to 8.0 %" is the ceiling's schedules.
    assert all(r.preempted <= 1e-9 for r in splits(jobs))
