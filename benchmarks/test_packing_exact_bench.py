"""Exact joint packing (issue 11, item 1): per instance and method, status, certified gap,
seconds and peak memory.

Issue sizes under ``PACKGAP_BENCH=large``, 60 s each, one thread: generated instances with
20, 40 and 100 jobs, seeds 1-5 (targets on seed 3: N = 20 proven optimal, N = 40 gap
<= 2 %, N = 100 <= 5 %), and the Muri-derived instances of the README (10 jobs on
V100:16, target <= 1 %; 40 jobs on V100:32, <= 10 %; skipped without the trace folder).
By default one small generated instance and 6 Muri jobs, a few seconds each.
Peak memory is the process's peak resident set during the solve (interpreter included).
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.conftest import LARGE, PeakRss, exact_info, sizes
from packgap.analysis.packing.methods import BY_NAME
from packgap.analysis.run import solve
from packgap.errors import PackgapError
from packgap.instances.packing.generator import generate
from packgap.packing import FAMILY, PackingInstance
from packgap.result import certified_gap
from packgap.solvers.outcome import SolveOptions

LIMIT_S = 60.0 if LARGE else 3.0
METHODS = ["exact-ti", "exact-cpsat"] if LARGE else ["exact-ti"]
SEEDS = [1, 2, 3, 4, 5] if LARGE else [3]


def _measure(benchmark: Any, inst: PackingInstance, method: str) -> None:
    options = SolveOptions(time_limit=LIMIT_S, seed=0)
    with PeakRss() as peak:
        result = benchmark.pedantic(solve, args=(FAMILY, inst, BY_NAME[method]), kwargs={"options": options}, rounds=1)
    heuristic = solve(FAMILY, inst, BY_NAME["dab+mchp"], options=options).objective
    benchmark.extra_info.update(
        **exact_info(result, peak),
        dab_mchp_gap=certified_gap(heuristic, result.bound),
    )
    assert result.objective is not None and result.bound is not None
    assert result.bound <= result.objective + 1e-9 * max(1.0, abs(result.objective))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("jobs", sizes([12], [20, 40, 100]))
@pytest.mark.parametrize("method", METHODS)
def test_generated(benchmark, method, jobs, seed):
    _measure(benchmark, generate(jobs, seed), method)


@pytest.mark.parametrize(("jobs", "gpus"), [(10, 16), (40, 32)] if LARGE else [(6, 16)])
@pytest.mark.parametrize("method", METHODS)
def test_muri(benchmark, method, jobs, gpus):
    from packgap.instances.packing.muri import build
    from packgap.instances.traces import trace_file

    try:
        path = trace_file("muri/cluster_exp/cluster_trace.csv")
    except PackgapError as exc:
        pytest.skip(str(exc))
    _measure(benchmark, build(path, 1, gpu_types=(("V100", gpus),), max_jobs=jobs), method)
