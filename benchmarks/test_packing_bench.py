"""Packing-family speed: the pipelines at CUCKOO's queue sizes (the paper packs and plans
2,000 jobs in under 3 s, section 5.3), DAB's matching on one dense or sparse batch (with
the sparse graph's weight loss recorded), and the exact models at small N."""

from __future__ import annotations

import pytest

from benchmarks.conftest import sizes
from packgap.analysis.registry import methods
from packgap.analysis.run import solve
from packgap.heuristics.packing.blossom import pack_by_matching
from packgap.heuristics.packing.scores import pair_scores
from packgap.instances.packing.generator import generate
from packgap.packing import FAMILY
from packgap.packing.groups import default_now
from packgap.packing.values import total_value
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions

OPTIONS = SolveOptions(time_limit=60, seed=0)


@pytest.mark.parametrize("jobs", sizes([40], [521, 2000]))
@pytest.mark.parametrize("method", ["dab+mchp", "blossom+mchp", "none+edf"])
def test_packing_pipelines(benchmark, jobs, method):
    instance = generate(jobs, seed=1)
    result = benchmark(solve, FAMILY, instance, methods("packing")[method], options=OPTIONS)
    benchmark.extra_info.update(objective=result.objective)
    assert result.objective is not None


@pytest.mark.parametrize("jobs", sizes([60], [500, 1000, 2000]))
@pytest.mark.parametrize("neighbours", [0, 32])
def test_dab_one_batch_matching(benchmark, jobs, neighbours):
    instance = generate(jobs, seed=1)
    scores = pair_scores(instance, "am", default_now(instance))
    weight = {
        (int(a), int(b)): float(x)
        for a, b, x in zip(scores.u, scores.v, total_value(scores.eff, scores.ddl), strict=True)
    }
    index = instance.job_index()

    def total(groups) -> float:  # type: ignore[no-untyped-def]
        return sum(weight[tuple(sorted((index[a], index[b])))] for a, b in (g for g in groups if len(g) == 2))

    groups = benchmark.pedantic(
        pack_by_matching,
        args=(instance, scores, lambda s: total_value(s.eff, s.ddl)),
        kwargs={"neighbours": neighbours},
        rounds=1,
    )
    benchmark.extra_info.update(matching_weight=total(groups))
    assert sorted(j for g in groups for j in g) == sorted(index)


@pytest.mark.parametrize("jobs", sizes([4], [10, 20, 30, 40]))
@pytest.mark.parametrize("method", ["exact-milp", "exact-cpsat"])
def test_packing_exact_models(benchmark, jobs, method):
    instance = generate(jobs, seed=3, gpu_types=(("A800", 2), ("A10", 4)))
    result = benchmark.pedantic(
        solve,
        args=(FAMILY, instance, methods("packing")[method]),
        kwargs={"options": OPTIONS},
        rounds=1,
    )
    # Issue 3: time to proven optimality, or the certified gap left at 60 s.
    benchmark.extra_info.update(status=str(result.status), gap=result.gap)
    # At 40 jobs the MILP may end its 60 s without an incumbent (measured: 190 s to build it).
    assert result.objective is not None or result.status == Status.TIMEOUT
