"""``--time-limit`` is a wall-clock promise that covers model building (issue 8, item 7)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from packgap.analysis.method import Clock, Method, MethodOutput, RunContext
from packgap.analysis.run import solve
from packgap.errors import TimeLimitReached
from packgap.planning import FAMILY
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions


def test_the_solver_gets_what_is_left_of_the_budget() -> None:
    ctx = RunContext(SolveOptions(time_limit=10.0), {}, Clock(start=time.perf_counter() - 4.0))
    left = ctx.solver_options().time_limit
    assert left is not None and 5.0 < left <= 6.0


def test_a_budget_spent_on_building_skips_the_solve() -> None:
    ctx = RunContext(SolveOptions(time_limit=1.0), {}, Clock(start=time.perf_counter() - 2.0))
    with pytest.raises(TimeLimitReached, match="spent building the model"):
        ctx.solver_options()


def _slow_build(instance: object, ctx: RunContext) -> MethodOutput:
    ctx.clock.start -= 100.0  # as if building had taken 100 s
    ctx.built()
    ctx.solver_options()
    raise AssertionError("unreachable: the budget is spent")


def test_a_spent_budget_is_a_timeout_with_build_time_recorded(table5) -> None:
    method = Method("planning", "slow", "builds for ever", _slow_build, exact=True)
    result = solve(FAMILY, table5, method, options=SolveOptions(time_limit=30.0))
    assert result.status == Status.TIMEOUT and result.solution is None
    assert result.build_s >= 100.0 and result.solve_s == pytest.approx(result.wall_s - result.build_s)
    assert "spent building the model" in result.message


def test_exact_methods_default_to_a_time_limit() -> None:
    method = Method("planning", "m", "", _slow_build, exact=True)
    assert method.options_for(SolveOptions()).time_limit == method.default_time_limit == 300.0
    assert method.options_for(SolveOptions(time_limit=5.0)).time_limit == 5.0
    assert Method("planning", "h", "", _slow_build).options_for(SolveOptions()).time_limit is None


def _best_pipeline(instance: object) -> object:
    from packgap.analysis.packing.runs import _hint

    return _hint(instance, "best")  # type: ignore[arg-type]


def _best_placement(instance: object) -> object:
    from packgap.analysis.placement.runs import best_heuristic

    return best_heuristic(instance)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("family", "method", "options", "heuristic"),
    [
        ("packing", "exact-milp", {"jobs": 20, "seed": 3}, _best_pipeline),
        ("placement", "exact-milp", {"gpus": 64, "jobs": 9, "seed": 1}, _best_placement),
        ("placement", "exact-cpsat", {"gpus": 64, "jobs": 9, "seed": 1}, _best_placement),
    ],
)
def test_a_model_that_cannot_be_built_in_time_answers_with_the_best_heuristic(
    family: str, method: str, options: dict[str, int], heuristic: Callable[[object], object]
) -> None:
    """Issue 17, item 3: a time limit too short to build the model is a timeout that still
    carries the family's best heuristic answer and its cheapest valid bound."""
    from packgap.analysis import registry

    kit = registry.kits()[family]
    instance = registry.generator(family).build(options)
    result = solve(kit.family, instance, registry.method(family, method), options=SolveOptions(time_limit=1e-3))
    assert result.status == Status.TIMEOUT, result.message
    assert result.objective == pytest.approx(kit.family.evaluate(instance, heuristic(instance)).objective, rel=1e-12)
    assert result.bound is not None and 0 < result.bound <= result.objective
