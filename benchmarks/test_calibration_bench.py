"""Calibration speed (issue 10, item 8): one coordination search, GIMBAL and exact, for sets of
2-8 jobs and every Table 3 set; the exact method must take < 1 s on each Table 3 set and < 10 s
on 8-job sets, and the continuous bound and one end-to-end Philly-sized run are timed too."""

from __future__ import annotations

import pytest

from benchmarks.conftest import short_rounds, sizes
from packgap.analysis.registry import methods
from packgap.analysis.run import solve
from packgap.calibration import FAMILY
from packgap.heuristics.calibration.online import run_workload
from packgap.instances.calibration.jobsets import generate, table3
from packgap.instances.calibration.workload import generate as generate_workload
from packgap.solvers.outcome import SolveOptions

OPTIONS = SolveOptions(time_limit=60, seed=0)


@pytest.mark.parametrize("jobs", sizes([4, 8], [2, 3, 4, 5, 6, 7, 8]))
@pytest.mark.parametrize("method", ["gimbal", "exact-frontier"])
def test_coordination_search(benchmark, jobs, method):
    instance = generate(jobs, seed=jobs)
    result = benchmark(solve, FAMILY, instance, methods("calibration")[method], options=OPTIONS)
    benchmark.extra_info.update(evaluations=result.metrics["evaluations"])
    assert result.objective is not None


@pytest.mark.parametrize("job_set", sizes(["JC1", "JC7"], [f"JC{i}" for i in range(1, 9)]))
@pytest.mark.parametrize("method", ["gimbal", "exact-frontier", "continuous-bound"])
def test_table3_sets(benchmark, job_set, method):
    result = benchmark(solve, FAMILY, table3(job_set), methods("calibration")[method], options=OPTIONS)
    assert result.objective is not None


@pytest.mark.parametrize("variant", ["gimbal", "exact"])
def test_end_to_end_run(benchmark, variant):
    workload = generate_workload(150 if sizes([0], [1])[0] else 30, seed=0)
    outcome = benchmark.pedantic(run_workload, args=(workload, "lucid", variant), **short_rounds())
    assert outcome.metrics["jobs"] == len(workload.jobs)
