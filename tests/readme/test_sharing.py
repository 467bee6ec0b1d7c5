"""The sharing page (``docs/families/sharing.md``): each policy's mean excess over the proven
non-preemptive optimum (6 jobs: cheap; 8 jobs: slow) and the Pollux-trace load study (slow)."""

from __future__ import annotations

import functools
import statistics
from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from packgap.errors import PackgapError
from packgap.heuristics.sharing.pair import sign_test_disagreement
from packgap.instances.sharing.generator import SMALL_GPUS, TABLE3
from tests.readme.quotes import Quote, check, on, ours, params, quotes, reproduction_rows, trace_path

if TYPE_CHECKING:
    from packgap.analysis.sharing.certified import Split

#: The page whose numbers this module recomputes.
PAGE = "docs/families/sharing.md"

POLICIES = ("FIFO", "SJF", "Tiresias", "SJF-FFS", "SJF-BSBF")
SEEDS = range(1, 11)


@functools.cache
def excess(jobs: int) -> dict[str, float]:
    from packgap.analysis.sharing.exact_scaling import mean_excess, measure

    rows = [measure(jobs, seed, 60.0) for seed in SEEDS]
    assert all(r.proven for r in rows), "every seed proven, as the page says"
    return mean_excess(rows, jobs)


def row(jobs: int, marks: tuple[str, ...]) -> list[Quote]:
    values = [functools.partial(lambda n, p: 100 * excess(n)[p], jobs, p) for p in POLICIES]
    return quotes(f"| {jobs} jobs, 16 GPUs |", values, marks=marks)


def pollux_load(quantity: str) -> float:
    """A number of ``sjf-bsbf-pollux-load`` (Pollux's workloads, xi from Gavel's co-location data;
    without them its rows say "traces not available" and the quote skips)."""
    trace_path("pollux")
    trace_path("gavel/simulation_throughputs.json")
    return ours("sjf-bsbf-pollux-load", quantity)


def reduction(load: float, other: str) -> float:
    return 100 * pollux_load(f"SJF-BSBF's JCT reduction vs {other} at {load:g}x")


POLLUX = "There SJF-BSBF's mean JCT is"
CLAIM = "SJF-BSBF's JCT reduction vs SJF"
AGREE = "share of the paper's orderings that agree"
REDUCTION = "SJF-BSBF's JCT reduction vs SJF, "


def table_pollux(name: str, quantity: str) -> float:
    """A Pollux-file number of the Table III or IV reproduction (skips without the traces)."""
    trace_path("pollux")
    trace_path("gavel/simulation_throughputs.json")
    return ours(name, f"{quantity} (Pollux)")


def cheap_bounds() -> list[float]:
    return [pollux_load(f"cheap bound on avg JCT at {load:g}x") for load in (0.5, 1.0, 1.5, 2.0)]


def pollux_gap(load: float) -> float:
    return 100 * pollux_load(f"best policy's certified gap at {load:g}x")


def crossover(quantity: str) -> float:
    """A number of ``sjf-bsbf-crossover``; its causes "xi from lucid" and "xi from gavel" read the
    traces (without them those rows are left out, and their quotes skip)."""
    for source, path in (("lucid", "lucid/colocate_info.csv"), ("gavel", "gavel/simulation_throughputs.json")):
        if f"xi from {source}" in quantity:
            trace_path(path)
    return ours("sjf-bsbf-crossover", quantity)


def cell(load: float, xi: str) -> float:
    return 100 * crossover(f"SJF-BSBF's JCT reduction vs SJF at {load:g}x, xi {xi}")


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
FREE = "Where sharing is nearly free (xi = 1) SJF-BSBF's mean JCT is"


def fig6b(xi: float, policy: str, key: str) -> float:
    """A part of ``policy``'s mean JCT (h) at ``xi`` in the quick Fig. 6b rows (run_time)."""
    rows = [r for r in reproduction_rows("sjf-bsbf-fig6b", True) if r["xi"] == xi]
    return statistics.fmean(r["run_time"][policy][key] for r in rows) / 3600


def without_sf() -> float:
    """The farthest SJF-BSBF's mean JCT (h) moves without Theorem 1's declines at xi = 1 or 1.25."""
    return max(
        abs(fig6b(xi, "sjf-bsbf without SF", "avg_jct_s") - fig6b(xi, "sjf-bsbf", "avg_jct_s")) for xi in (1.0, 1.25)
    )


def fig6b_reduction(xi: float) -> float:
    return 100 * ours("sjf-bsbf-fig6b", f"SJF-BSBF's JCT reduction vs SJF-FFS at xi = {xi:g}", True)


def peer_agreement(quantity: str) -> float:
    """Settings, jobs, or jobs where ``tiresias`` with ``queue_order=arrival`` meets the
    simulator's completion time, in the peer data of ``tests/peers/tiresias``."""
    from packgap.heuristics.sharing.tiresias import tiresias
    from tests.sharing import test_tiresias_peer as peer

    if quantity == "settings":
        return len(peer.SETTINGS)
    if quantity == "jobs":
        return sum(len(peer.peer_jobs(s)) for s in peer.SETTINGS)
    missed = 0
    for setting in peer.SETTINGS:
        solution = tiresias(peer.instance(setting), peer.thresholds(setting), queue_order="arrival")
        missed += len(peer.disagreeing(setting, solution, "tiresias_end"))
    return peer_agreement("jobs") - missed


@functools.cache
def tiresias_240_metrics(resume_overhead_s: float) -> tuple[Mapping[str, float], ...]:
    """Tiresias's metrics on ``generate(240, seed, workload="v1")``, seeds 1-3 (the preset these
    numbers were measured on; issue 30 made ``table3`` the default)."""
    from packgap.heuristics.sharing.tiresias import tiresias
    from packgap.instances.sharing.generator import generate
    from packgap.sharing import FAMILY

    runs = [generate(240, seed, workload="v1") for seed in (1, 2, 3)]
    return tuple(FAMILY.evaluate(i, tiresias(i, resume_overhead_s=resume_overhead_s)).metrics for i in runs)


def tiresias_240(key: str, resume_overhead_s: float = 0.0) -> float:
    """Tiresias's mean ``key`` (h) over :func:`tiresias_240_metrics`."""
    return statistics.fmean(m[key] for m in tiresias_240_metrics(resume_overhead_s)) / 3600


TIRESIAS_240 = "On the generated 240-job workloads (the v1 preset), seeds 1-3, Tiresias queues"

QUOTES: list[Quote] = [
    *quotes(
        "its demotion wake-up fixed: `tests/peers/tiresias/PROVENANCE.md`) on",
        [lambda: peer_agreement("settings"), lambda: peer_agreement("jobs")],
    ),
    Quote("(`queue_order=arrival`, the order before issue 29) agrees on", 0, lambda: peer_agreement("arrival")),
    *quotes(
        TIRESIAS_240,
        [
            lambda: tiresias_240("avg_queuing_s"),
            lambda: tiresias_240("avg_not_running_s"),
            lambda: 120.0,
            lambda: tiresias_240("avg_jct_s"),
            lambda: tiresias_240("avg_jct_s", 120.0),
        ],
    ),
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
        "(quick: 240 jobs, seed 0): SJF-BSBF is",
        [
            lambda: fig6b_reduction(1.0),
            lambda: fig6b_reduction(1.25),
        ],
    ),
    Quote("SJF-BSBF's mean JCT moves by", 0, without_sf),
    *quotes(
        "the whole gap is sub-batch accumulation,",
        [lambda: fig6b(1.0, "sjf-ffs", "accumulation_s"), lambda: fig6b(1.0, "sjf-bsbf", "accumulation_s")],
    ),
    *row(6, ()),
    *row(8, ("slow",)),
    *quotes(
        POLLUX,
        [
            lambda: reduction(0.5, "sjf"),
            lambda: 0.5,
            lambda: reduction(2.0, "sjf"),
            lambda: 2.0,
            lambda: -reduction(0.5, "tiresias"),
            lambda: 0.5,
            lambda: reduction(2.0, "tiresias"),
            lambda: 2.0,
        ],
        marks=("slow", "traces"),
    ),
    *quotes(
        "bound lies at",
        [lambda: min(cheap_bounds()), lambda: max(cheap_bounds())],
        marks=("slow", "traces"),
    ),
    # The LP stops at a work limit (40,000 HiGHS iterations per file): the same bound on every run.
    *quotes(
        "the best policy's certified gap still grows with the load:",
        [
            lambda: pollux_gap(0.5),
            lambda: 0.5,
            lambda: pollux_gap(1.0),
            lambda: 1.0,
            lambda: pollux_gap(1.5),
            lambda: 1.5,
            lambda: pollux_gap(2.0),
        ],
        slack=0.05,
        marks=("slow", "traces"),
    ),
    *quotes(FREE, [lambda: cell(1.0, "1"), lambda: 1.0, lambda: cell(2.0, "1"), lambda: 2.0], marks=("slow",)),
    *quotes("at v1's per-pair xi it is", [lambda: -cell(1.0, "U(1.1,2)")], marks=("slow",)),
    *quotes(
        "each GPU class's mean solo time Table III's run time,",
        [
            lambda: TABLE3.small_mean_s / 3600,
            lambda: SMALL_GPUS,
            lambda: TABLE3.large_mean_s / 3600,
            lambda: TABLE3.bursts,
            lambda: TABLE3.hours,
            lambda: TABLE3.xi_high,
        ],
    ),
    *quotes(
        "On the generated workload SJF-BSBF's mean JCT lies",
        [
            lambda: 100 * ours("sjf-bsbf-table3", CLAIM),
            lambda: 240,
            lambda: 100 * ours("sjf-bsbf-table4", CLAIM),
            lambda: 480,
            lambda: 100 * (1 - 1.01 / 1.25),
            lambda: 100 * (1 - 1.57 / 2.55),
        ],
        marks=("slow",),
    ),
    *quotes(
        "on Pollux's files it lies",
        [lambda: 100 * table_pollux("sjf-bsbf-table3", CLAIM), lambda: 100 * table_pollux("sjf-bsbf-table4", CLAIM)],
        marks=("slow", "traces"),
    ),
    *quotes(
        "Of Table III's orderings against SJF-BSBF,", [lambda: 100 * ours("sjf-bsbf-table3", AGREE)], marks=("slow",)
    ),
    *quotes("generated workload and", [lambda: 100 * table_pollux("sjf-bsbf-table3", AGREE)], marks=("slow", "traces")),
    *quotes("the workload (v1", [lambda: -100 * crossover(REDUCTION + "baseline")], marks=("slow",)),
    *quotes(
        "with v1's xi U(1.1, 2):",
        [lambda: -100 * crossover(REDUCTION + "Table III workload, xi U(1.1, 2)")],
        marks=("slow",),
    ),
    *quotes(
        "xi (that workload with xi",
        [
            lambda: TABLE3.xi_high,
            lambda: 100 * (0.87 / 0.69 - 1),
            lambda: 100 * crossover(REDUCTION + "Table III workload"),
        ],
        marks=("slow",),
    ),
    *quotes(
        "memory (",
        [lambda: 24, lambda: 100 * crossover(REDUCTION + "Table III workload, 24 GB GPUs")],
        marks=("slow",),
    ),
    *quotes(
        '`wait_batch="solo"`:',
        [lambda: 100 * crossover(REDUCTION + "Table III workload, wait at the solo sub-batch")],
        marks=("slow",),
    ),
    *quotes("below; on v1", [lambda: -100 * crossover(REDUCTION + "wait at the solo sub-batch")], marks=("slow",)),
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
    Quote("On 240-job / 64-GPU generated workloads it stays near the cheap bound's", 1, generated, marks=("slow",)),
    *quotes(
        "the printed sign test disagrees with it on",
        [lambda: 100 * sign_test_disagreement(), lambda: 100 * sign_test_disagreement(swapped=True)],
    ),
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
    Quote(
        "remaining solo time,", 0, lambda: crossover("wait Theorem 1 assumes at a shared start (mean)"), marks=("slow",)
    ),
    Quote(
        "while the same jobs queue", 0, lambda: crossover("the same jobs' queueing under SJF (mean)"), marks=("slow",)
    ),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_sharing_numbers(quote: Quote) -> None:
    check(quote)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [6, 8])
def test_tiresias_never_goes_below_the_optimum_on_the_readme_instances(jobs: int) -> None:
    # Tiresias's 2D-LAS never does; the page's "by up to 8.0 %" is the ceiling's schedules.
    assert all(r.preempted <= 1e-9 for r in splits(jobs))
