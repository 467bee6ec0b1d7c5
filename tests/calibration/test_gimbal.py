"""GIMBAL Algorithm 1: valid answers, early exit never beats the full search, cost model, priorities."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.calibration import FAMILY
from packgap.errors import PackgapError
from packgap.heuristics.calibration.gimbal import coordinate
from packgap.heuristics.calibration.priority import priorities
from packgap.heuristics.calibration.search_cost import CostModel, objective_with_search, search_time
from packgap.heuristics.calibration.state import free_competition
from packgap.instances.calibration.jobsets import generate, table3

sets = st.builds(
    generate,
    jobs=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    objective=st.sampled_from(["jct", "makespan", "deadline"]),
)


@settings(max_examples=25, deadline=None)
@given(instance=sets)
def test_early_exit_never_beats_full_search(instance):
    early, full = coordinate(instance), coordinate(instance, early_exit=False)
    assert full.objective <= early.objective + 1e-9
    assert len(early.steps) <= len(full.steps)
    assert early.steps == full.steps[: len(early.steps)]
    for search in (early, full):
        sol = search.best.solution(instance)
        FAMILY.validate(instance, sol)
        assert FAMILY.evaluate(instance, sol).objective == pytest.approx(search.objective)
        assert search.objective <= free_competition(instance).objective(instance) + 1e-9


def test_search_time_counts_iterations_by_mechanism():
    search = coordinate(table3("JC2"))
    kinds = [s.mechanism for s in search.steps]
    assert search_time(search.steps, CostModel()) == 9 * kinds.count("liss") + 39 * kinds.count("lgrr")
    assert search.evaluations == 1 + len(kinds)


def test_searching_costs_objective():
    inst = table3("JC5")
    search = coordinate(inst)
    paid = objective_with_search(inst, search.steps, search.best, CostModel())
    assert paid > search.objective
    free = objective_with_search(inst, search.steps, search.best, CostModel(0.0, 0.0, 0.0))
    assert free == pytest.approx(search.objective)


def test_priorities_follow_the_text():
    inst = table3("JC7", objective="makespan")
    times = free_competition(inst).times(inst)
    text, printed = priorities(inst, times), priorities(inst, times, "printed")
    longest = max(range(3), key=lambda j: times[j])
    assert max(range(3), key=lambda j: text[j]) == longest
    assert min(range(3), key=lambda j: printed[j]) == longest


def test_granularity_must_fit_the_instance_grid():
    with pytest.raises(PackgapError, match="not a multiple"):
        coordinate(table3("JC1"), granularity=15)
