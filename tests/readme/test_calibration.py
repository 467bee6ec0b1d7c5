"""The calibration page (``docs/families/calibration.md``): the Table 3 rows (``packgap calibration table3``,
cheap; both subset-priority readings), Fig. 15's search times and Fig. 8's end-to-end
improvements on Philly and Alibaba, aggressive packing alone and calibration's own gain (150 Philly
jobs, 300 Alibaba jobs: slow)."""

from __future__ import annotations

import functools
from functools import partial
from typing import Any

import pytest

from packgap.instances.calibration.workload import OPENB_COMPRESS, OPENB_START_S
from packgap.paper_figures.gimbal.fig8 import fig8_size
from packgap.paper_figures.gimbal.plots import PAPER_FIG8
from tests.readme.quotes import Quote, check, on, ours, paper, params, quotes, reproduction_rows, trace_path

#: The page whose numbers this module recomputes.
PAGE = "docs/families/calibration.md"

SETS = 8
BASES = ("lucid", "gandiva", "gavel")
#: The trace file of each end-to-end workload (section 7.1), under the trace folder.
TRACE_FILES = {"Philly": "philly/philly.csv", "Alibaba": "alibaba-gpu-v2023-openb/openb_pod_list_default.csv"}
#: End-to-end runs: minutes, and each reads its workload's trace file.
SLOW_TRACES = ("slow", "traces")
FULL, EARLY, REACH = "full search time", "early-exit search time", "early exit's JCT performance vs full"


@functools.cache
def table3() -> list[dict[str, Any]]:
    from packgap.analysis.calibration.commands import report_rows

    return report_rows(10.0)


def table3_gap(job_set: int, key: str) -> float:
    return 100 * float(table3()[job_set][key])


def subset_min_gap(job_set: int) -> float:
    """GIMBAL's gap to the grid optimum with the other subset-priority reading (issue 19.7b)."""
    from packgap.heuristics.calibration.gimbal import coordinate
    from packgap.instances.calibration.jobsets import table3 as job_set_of

    found = coordinate(job_set_of(f"JC{job_set + 1}", granularity=10.0), subset="min").objective
    return 100 * (found - table3()[job_set]["exact_jct_s"]) / found


def calibration_gain(base: str) -> float:
    """GIMBAL over aggressive packing without calibration (issue 19.7c)."""
    return fig8(base, "GIMBAL") / fig8(base, "aggressive packing alone")


def reached() -> float:
    """The sets where early exit reached the full search's result (the mean ratio is then 1)."""
    return SETS if ours("gimbal-fig15", REACH) == 1.0 else -1.0


def fig8(base: str, how: str, trace: str = "Philly") -> float:
    """A ratio of Fig. 8 on ``trace``'s workload: without its file the reproduction runs the seeded
    generator instead, whose numbers the page does not quote, so the quote skips."""
    trace_path(TRACE_FILES[trace])
    return ours("gimbal-fig8", f"{trace}: {base} + {how}")


@functools.cache
def eight_jobs(method: str) -> float:
    """``method``'s objective on ``generate calibration --jobs 8 --seed 3`` (issue 17)."""
    from packgap.analysis.registry import kit
    from packgap.analysis.registry import method as named
    from packgap.analysis.run import solve
    from packgap.instances.calibration.jobsets import generate
    from packgap.solvers.outcome import SolveOptions

    result = solve(kit("calibration").family, generate(8, 3), named("calibration", method), options=SolveOptions())
    assert result.objective is not None
    return result.objective


def gavel(variant: str, key: str) -> float:
    """A Gavel run of the quick Fig. 12 ablation (40 Philly jobs on 16 GPUs; without
    ``philly.csv`` the reproduction runs the seeded generator instead, so the quote skips)."""
    trace_path(TRACE_FILES["Philly"])
    rows = reproduction_rows("gimbal-fig12", True)
    return float(next(r[key] for r in rows if (r["base"], r["variant"]) == ("gavel", variant)))


FIG8 = "improvement over each base scheduler: GIMBAL gives Lucid JCT"
ALIBABA = "On the Alibaba workload (Fig. 8 (b):"
QUOTES: list[Quote] = [
    *quotes("| GIMBAL's gap to the grid optimum |", [partial(table3_gap, i, "gimbal_gap") for i in range(SETS)]),
    *quotes("| grid optimum's gap to the bound |", [partial(table3_gap, i, "grid_gap") for i in range(SETS)]),
    *quotes("| the same with `subset_priority=min` |", [partial(subset_min_gap, i) for i in range(SETS)]),
    *quotes(
        "aggressive packing without calibration gives",
        [partial(fig8, b, "aggressive packing alone") for b in BASES] + [partial(calibration_gain, b) for b in BASES],
        marks=SLOW_TRACES,
    ),
    *(
        q
        for i, base in enumerate(BASES)
        for q in (
            Quote(FIG8, 3 * i, partial(fig8, base, "GIMBAL"), marks=SLOW_TRACES),
            Quote(FIG8, 3 * i + 1, partial(fig8, base, "exact calibration"), marks=SLOW_TRACES),
            Quote(FIG8, 3 * i + 2, partial(PAPER_FIG8["philly"].__getitem__, base)),
        )
    ),
    *(
        q
        for i, base in enumerate(BASES)
        for q in (
            Quote(ALIBABA, 2 * i + 4, partial(fig8, base, "GIMBAL", "Alibaba"), marks=SLOW_TRACES),
            Quote(ALIBABA, 2 * i + 5, partial(PAPER_FIG8["alibaba"].__getitem__, base)),
        )
    ),
    *quotes(ALIBABA, [lambda: fig8_size(False)["alibaba jobs"], lambda: OPENB_START_S / 1e6, lambda: OPENB_COMPRESS]),
    Quote(ALIBABA, 3, lambda: 2 * fig8_size(False)["nodes"]),
    Quote(ALIBABA, 10, partial(fig8, "gandiva", "exact calibration", "Alibaba"), marks=SLOW_TRACES),
    *quotes(
        "In the Fig. 12 ablation (quick:",
        [
            lambda: gavel("baseline", "jobs"),
            lambda: gavel("baseline", "gpus"),
            lambda: gavel("baseline", "makespan_s"),
            lambda: gavel("unequal", "makespan_s"),
            lambda: gavel("unequal", "last_job_gpus"),
            lambda: gavel("baseline", "last_job_queuing_s"),
            lambda: gavel("unequal", "last_job_queuing_s"),
            lambda: gavel("baseline", "mean_queuing_s"),
            lambda: gavel("unequal", "mean_queuing_s"),
            lambda: gavel("baseline", "gpus"),
            lambda: gavel("baseline", "solo_load_s"),
            lambda: gavel("liss", "straggler_sets"),
            lambda: gavel("liss", "calibrations"),
        ],
        marks=("traces",),
    ),
    Quote("its untouched all-100 % point,", 0, partial(eight_jobs, "liss-only")),
    Quote("its untouched all-100 % point,", 3, partial(eight_jobs, "exact-frontier")),
    *quotes(
        "the full search's result on all",
        [
            reached,
            lambda: 100 * paper("gimbal-fig15", REACH),
            lambda: ours("gimbal-fig15", EARLY),
            lambda: ours("gimbal-fig15", FULL),
            lambda: paper("gimbal-fig15", EARLY),
            lambda: paper("gimbal-fig15", FULL),
        ],
    ),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_calibration_numbers(quote: Quote) -> None:
    check(quote)
