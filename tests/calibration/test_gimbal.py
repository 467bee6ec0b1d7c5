"""GIMBAL Algorithm 1: valid answers, early exit never beats the full search, cost model, priorities."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.calibration import FAMILY
from packgap.errors import PackgapError
from packgap.heuristics.calibration.gimbal import coordinate
from packgap.heuristics.calibration.liss import liss_split
from packgap.heuristics.calibration.priority import priorities, subset_priority
from packgap.heuristics.calibration.search_cost import CostModel, objective_with_search, search_time
from packgap.heuristics.calibration.state import free_competition, with_liss
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


@settings(max_examples=25, deadline=None)
@given(instance=sets)
def test_liss_follows_every_speed_change(instance):
    """Issue 19.7a: after an LGRR step every job whose workers' speeds changed (co-runners
    of the moved job included) holds the LISS split of its new speeds."""
    steps = coordinate(instance, early_exit=False).steps
    for before, after in itertools.pairwise(steps):
        if after.mechanism != "lgrr":
            continue
        old, new = before.calibration.speeds(instance), after.calibration.speeds(instance)
        for j, job in enumerate(instance.jobs):
            if new[j] != old[j]:
                assert after.calibration.samples[j] == pytest.approx(liss_split(job.batch, new[j]))


def test_co_runners_get_a_new_split():
    """`packgap instances generate calibration --jobs 3 --seed 8`: stale co-runner splits left
    GIMBAL at 7,751 s where its own shares allowed 7,306 s; now the two agree."""
    inst = generate(3, seed=8)
    search = coordinate(inst)
    assert search.objective == pytest.approx(with_liss(inst, search.best.shares).objective(inst))
    assert search.objective < 7306


def test_subset_priority_reading():
    """Issue 19.7b: on JC7 the max reading ties J_max with a partner and squeezes J_max; the
    min reading squeezes the partners and lands closer to the grid optimum."""
    inst = table3("JC7")
    high, low = coordinate(inst), coordinate(inst, subset="min")
    assert low.objective < high.objective
    assert subset_priority([1.0, 3.0, 2.0], [1, 2]) == 3.0
    assert subset_priority([1.0, 3.0, 2.0], [1, 2], "min") == 2.0
    with pytest.raises(PackgapError, match="mean"):
        coordinate(inst, subset="mean")
