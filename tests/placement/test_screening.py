"""The score screen and the cheapest-first start of the block method (issue 21, item 2): the
screen never loses an optimal placement, and rounds of a few jobs on a large cluster, which
the Lagrangian alone could not close within 10 s on 27,648 GPUs, are proven optimal."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given

from packgap.analysis.placement.exact_blocks.greedy import cheapest_first
from packgap.analysis.placement.methods import BY_NAME
from packgap.analysis.run import solve
from packgap.instances.placement.rounds import generate_round
from packgap.models.placement.screening import screen
from packgap.placement import FAMILY, PlacementInstance
from packgap.result import SolveResult, Status
from packgap.solvers.outcome import SolveOptions
from tests.placement.strategies import rounds
from tests.placement.test_exact_blocks import TINY, _tol, brute_optimum

#: A backstop far above what the rounds here take; the ascent's step cap binds first.
OPTIONS = SolveOptions(time_limit=600, seed=0)


@TINY
@given(rounds(max_nodes=3, max_per_node=3))
def test_screen_keeps_an_optimal_placement(instance: PlacementInstance) -> None:
    if not instance.jobs:
        return
    optimum = brute_optimum(instance)
    for upper in (optimum, optimum + 0.5):
        screened = screen(instance, upper)
        assert set(screened.free_gpus()) <= set(instance.free_gpus())
        assert brute_optimum(screened) == pytest.approx(optimum, abs=_tol(optimum))


@TINY
@given(rounds(max_nodes=3, max_per_node=3))
def test_cheapest_first_is_a_valid_placement(instance: PlacementInstance) -> None:
    solution = cheapest_first(instance)
    FAMILY.validate(instance, solution)
    assert FAMILY.evaluate(instance, solution).objective >= brute_optimum(instance) - _tol(1.0)


def one_job_optimum(instance: PlacementInstance) -> float:
    """Every node's best ``N`` free GPUs, and the best ``N`` anywhere at ``L_across``: the
    cheapest subset of each locality (a spread subset no better than a node's is never needed)."""
    (job,) = instance.jobs
    scores = instance.pm_scores[job.job_class]
    free = instance.free_gpus()
    by_node: dict[int, list[float]] = {}
    for g in free:
        by_node.setdefault(instance.node_of(g), []).append(scores[g])
    within = [sorted(s)[job.gpus - 1] for s in by_node.values() if len(s) >= job.gpus]
    spread = instance.penalty(job) * sorted(scores[g] for g in free)[job.gpus - 1] if job.gpus > 1 else None
    return instance.weight(job) * min(v for v in (*within, spread) if v is not None)


@functools.cache
def exact(gpus: int, jobs: int, name: str = "exact-blocks") -> tuple[PlacementInstance, SolveResult]:
    instance = generate_round(gpus, jobs, 1, held=0.5)
    return instance, solve(FAMILY, instance, BY_NAME[name], options=OPTIONS)


def _proven(result: SolveResult) -> float:
    assert result.status == Status.OPTIMAL, result.message
    assert result.objective is not None and result.bound == pytest.approx(result.objective, rel=1e-9)
    return result.objective


@pytest.mark.parametrize("gpus", [8_192, pytest.param(27_648, marks=pytest.mark.slow)])
def test_one_job_on_a_large_cluster_is_proven_optimal(gpus: int) -> None:
    instance, result = exact(gpus, 1)
    assert _proven(result) == pytest.approx(one_job_optimum(instance), abs=1e-12)
    assert "dual on" in result.message and f"dual on {len(instance.free_gpus())} GPUs" not in result.message


@pytest.mark.parametrize("gpus", [8_192, pytest.param(27_648, marks=pytest.mark.slow)])
def test_a_few_jobs_on_a_large_cluster_are_proven_optimal(gpus: int) -> None:
    instance, result = exact(gpus, 5)
    assert len(instance.jobs) == 5
    _proven(result)


@pytest.mark.parametrize("jobs", [1, 4])
def test_few_job_optimum_equals_the_one_cell_milp(jobs: int) -> None:
    _, blocks = exact(1_024, jobs)
    _, milp = exact(1_024, jobs, "exact-milp")
    assert _proven(blocks) == pytest.approx(_proven(milp), abs=1e-9)
