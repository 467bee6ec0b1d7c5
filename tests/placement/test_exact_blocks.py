"""The block method against a brute-force enumerator of tiny rounds (issue 11, item 6): every
bound it computes (Lagrangian at any prices, the method's reported bound) is <= the true
optimum, pruning keeps an optimal placement, and the method proves the optimum."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from packgap.analysis.method import RunContext
from packgap.analysis.placement.exact_blocks.ascent import maximise, transport_prices
from packgap.analysis.placement.methods import BY_NAME
from packgap.analysis.run import solve
from packgap.models.placement.block_bound import evaluate, round_dual
from packgap.models.placement.block_paths import build_blocks, extract, start_values
from packgap.models.placement.job_types import blocks, job_types
from packgap.models.placement.pruning import kept_arcs
from packgap.placement import FAMILY, PlacementInstance, PlacementSolution, job_slowdown
from packgap.result import Status
from packgap.solvers.matrix import solve_mip
from packgap.solvers.outcome import SolveOptions
from tests.placement.strategies import rounds

OPTIONS = SolveOptions(time_limit=30, seed=0)
TINY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


def busy(max_nodes: int, max_per_node: int) -> st.SearchStrategy[PlacementInstance]:
    """Tiny rounds with at least two jobs (the brute force stays below 10^4 placements)."""
    return rounds(max_nodes=max_nodes, max_per_node=max_per_node).filter(lambda inst: len(inst.jobs) >= 2)


def brute_optimum(instance: PlacementInstance) -> float:
    """Every assignment of GPU subsets to the jobs, in queue order, cut off at the best so far."""
    jobs = instance.jobs
    best = math.inf

    def place(i: int, left: tuple[int, ...], cost: float) -> None:
        nonlocal best
        if cost >= best:
            return
        if i == len(jobs):
            best = cost
            return
        job = jobs[i]
        for gpus in itertools.combinations(left, job.gpus):
            slowdown = job_slowdown(instance, job, gpus).slowdown
            place(i + 1, tuple(g for g in left if g not in gpus), cost + instance.weight(job) * slowdown)

    place(0, tuple(instance.free_gpus()), 0.0)
    return best


def _tol(value: float) -> float:
    return 1e-7 * max(1.0, abs(value))


@TINY
@given(busy(2, 4))
def test_method_is_optimal_and_its_bound_valid(instance: PlacementInstance) -> None:
    optimum = brute_optimum(instance)
    result = solve(FAMILY, instance, BY_NAME["exact-blocks"], options=OPTIONS)
    assert result.status == Status.OPTIMAL, result.message
    assert result.bound is not None and result.bound <= optimum + _tol(optimum)
    assert result.objective == pytest.approx(optimum, abs=_tol(optimum))


@TINY
@given(busy(3, 3), st.integers(0, 2**32 - 1))
def test_lagrangian_is_a_lower_bound_at_any_prices(instance: PlacementInstance, seed: int) -> None:
    if not instance.jobs:
        return
    optimum = brute_optimum(instance)
    rd = round_dual(instance)
    rng = np.random.default_rng(seed)
    pi, mu = transport_prices(rd)
    for scale in (0.0, 0.1, 1.0):
        noisy_pi = pi + scale * rng.normal(size=len(pi))
        noisy_pi = noisy_pi if rd.fills else np.minimum(noisy_pi, 0.0)
        value = evaluate(rd, noisy_pi, mu + scale * rng.normal(size=len(mu))).value
        assert value <= optimum + _tol(optimum)
    ascent = maximise(rd, optimum + 1.0, None, iterations=300)
    assert ascent.best.value <= optimum + _tol(optimum)


@TINY
@given(busy(2, 4))
def test_pruning_keeps_an_optimal_placement(instance: PlacementInstance) -> None:
    """Pruned against an incumbent just above the optimum, the block-path MILP still reaches it."""
    if not instance.jobs:
        return
    optimum = brute_optimum(instance)
    rd = round_dual(instance)
    point = evaluate(rd, *transport_prices(rd))
    model = build_blocks(instance, kept_arcs(rd, point.pi, point.mu, point.value, optimum + 1e-6))
    result = solve_mip(model.mip, OPTIONS)
    assert result.outcome.status == Status.OPTIMAL and result.values is not None
    solution = extract(model, result.values)
    FAMILY.validate(instance, solution)
    assert FAMILY.evaluate(instance, solution).objective == pytest.approx(optimum, abs=_tol(optimum))


@TINY
@given(rounds())
def test_start_values_are_feasible_and_cost_at_least_the_evaluation(instance: PlacementInstance) -> None:
    if not instance.jobs:
        return
    solution = _run("pal+blocks", instance)
    model = build_blocks(instance)
    x = start_values(model, solution)
    assert x is not None
    mip = model.mip
    activity = np.zeros(mip.num_row)
    np.add.at(activity, mip.index, mip.value * np.repeat(x, np.diff(mip.start)))
    assert np.all(activity >= mip.row_lower - 1e-9) and np.all(activity <= mip.row_upper + 1e-9)
    again = extract(model, x)
    FAMILY.validate(instance, again)
    evaluated = FAMILY.evaluate(instance, again).objective
    assert mip.cost @ x >= evaluated - 1e-9
    assert evaluated <= FAMILY.evaluate(instance, solution).objective + 1e-9


def _run(name: str, instance: PlacementInstance) -> PlacementSolution:
    solution = BY_NAME[name].run(instance, RunContext(OPTIONS, BY_NAME[name].resolve_params({}))).solution
    assert isinstance(solution, PlacementSolution)
    return solution


@settings(max_examples=40, deadline=None)
@given(rounds())
def test_pal_blocks_is_never_worse_than_pal(instance: PlacementInstance) -> None:
    pal = _run("pal", instance)
    better = _run("pal+blocks", instance)
    FAMILY.validate(instance, better)
    assert FAMILY.evaluate(instance, better).objective <= FAMILY.evaluate(instance, pal).objective + 1e-9


def test_blocks_minimise_the_sum_of_maxima() -> None:
    scores = (0.9, 1.3, 1.0, 1.1, 2.0, 0.95)
    pool = range(6)
    best = min(
        sum(max(scores[g] for g in block) for block in (split[:2], split[2:4], split[4:]))
        for split in itertools.permutations(pool)
    )
    assert sum(max(scores[g] for g in b) for b in blocks(pool, 2, scores)) == pytest.approx(best)
    assert blocks(pool, 2, scores) == [(0, 5), (2, 3), (1, 4)]


def test_identical_jobs_merge_into_types() -> None:
    from packgap.placement import Job

    inst = PlacementInstance(
        name="t",
        nodes=3,
        gpus_per_node=2,
        classes=("A",),
        pm_scores={"A": (1.0, 1.1, 1.2, 1.3, 0.9, 2.0)},
        locality_penalty=1.5,
        jobs=(Job("a", 1, "A", "m"), Job("b", 2, "A", "m"), Job("c", 1, "A", "m2"), Job("d", 1, "A", "m", 2.0)),
        model_penalties={"m2": 2.0},
    )
    types = job_types(inst)
    assert [t.jobs for t in types] == [("a", "c", "d"), ("b",)]
    assert types[1].packs_within(2) and not types[0].packs_within(2)
    solution = _run("exact-blocks", inst)
    assert FAMILY.evaluate(inst, solution).objective == pytest.approx(brute_optimum(inst))
