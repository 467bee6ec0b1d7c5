"""The README's section "Calibration (GIMBAL)": the Table 3 rows (``packgap calibration table3``,
cheap), Fig. 15's search times and Fig. 8's end-to-end improvements (150 Philly jobs: slow)."""

from __future__ import annotations

import functools
from functools import partial
from typing import Any

import pytest

from packgap.analysis.calibration.figures import PAPER_FIG8
from tests.readme.quotes import Quote, check, ours, paper, params, quotes

SETS = 8
BASES = ("lucid", "gandiva", "gavel")
FULL, EARLY, REACH = "full search time", "early-exit search time", "early exit's JCT performance vs full"


@functools.cache
def table3() -> list[dict[str, Any]]:
    from packgap.analysis.calibration.commands import report_rows

    return report_rows(10.0)


def table3_gap(job_set: int, key: str) -> float:
    return 100 * float(table3()[job_set][key])


def reached() -> float:
    """The sets where early exit reached the full search's result (the mean ratio is then 1)."""
    return SETS if ours("gimbal-fig15", REACH) == 1.0 else -1.0


def fig8(base: str, how: str) -> float:
    return ours("gimbal-fig8", f"{base} + {how}")


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


FIG8 = "improvement over each base scheduler: GIMBAL gives Lucid JCT"
QUOTES: list[Quote] = [
    *quotes("| GIMBAL's gap to the grid optimum |", [partial(table3_gap, i, "gimbal_gap") for i in range(SETS)]),
    *quotes("| grid optimum's gap to the bound |", [partial(table3_gap, i, "grid_gap") for i in range(SETS)]),
    *(
        q
        for i, base in enumerate(BASES)
        for q in (
            Quote(FIG8, 3 * i, partial(fig8, base, "GIMBAL"), marks=("slow",)),
            Quote(FIG8, 3 * i + 1, partial(fig8, base, "exact calibration"), marks=("slow",)),
            Quote(FIG8, 3 * i + 2, partial(PAPER_FIG8.__getitem__, base)),
        )
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


@pytest.mark.parametrize("quote", params(QUOTES))
def test_calibration_numbers(quote: Quote) -> None:
    check(quote)
