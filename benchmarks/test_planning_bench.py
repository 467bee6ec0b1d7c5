"""Planning-phase speed: MCHP and Horn's flow at queue sizes up to CUCKOO's 2,000 jobs
(the paper packs and plans 2,000 jobs in under 3 s), and the exact models at small N."""

from __future__ import annotations

import pytest

from benchmarks.conftest import sizes
from packgap.analysis.registry import methods
from packgap.analysis.run import solve
from packgap.instances.planning.generator import generate
from packgap.planning import FAMILY
from packgap.solvers.outcome import SolveOptions

OPTIONS = SolveOptions(time_limit=60, seed=0)


@pytest.mark.parametrize("groups", sizes([50], [200, 1000, 2000]))
@pytest.mark.parametrize("method", ["mchp", "exact-flow", "edf"])
def test_planning_heuristics_and_flow(benchmark, groups, method):
    instance = generate(groups, seed=1)
    result = benchmark(solve, FAMILY, instance, methods("planning")[method], options=OPTIONS)
    assert result.objective is not None


@pytest.mark.parametrize("groups", sizes([6], [8, 10, 12]))
@pytest.mark.parametrize("method", ["exact-cpsat", "exact-milp"])
def test_planning_exact_models(benchmark, groups, method):
    instance = generate(groups, seed=1, gpu_types=(("A800", 1), ("RTX4090", 2)))
    result = benchmark.pedantic(
        solve, args=(FAMILY, instance, methods("planning")[method]), kwargs={"options": OPTIONS}, rounds=1
    )
    benchmark.extra_info.update(status=str(result.status), gap=result.gap)
    assert result.objective is not None
