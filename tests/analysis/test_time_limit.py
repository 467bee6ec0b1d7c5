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
from tests.deadlines import cannot_build, works_a_minute


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
    from packgap.heuristics.placement import pal, pm_first
    from packgap.placement import FAMILY as PLACEMENT

    placed = [pal(instance, 0), pm_first(instance, 0)]  # type: ignore[arg-type]
    return min(placed, key=lambda s: PLACEMENT.evaluate(instance, s).objective)  # type: ignore[arg-type]


SMALL_ROUND = {"gpus": 64, "jobs": 9, "seed": 1}


@pytest.mark.parametrize(
    ("family", "method", "options", "heuristic", "builder"),
    [
        ("packing", "exact-milp", {"jobs": 20, "seed": 3}, _best_pipeline, "packgap.models.packing.milp.build_milp"),
        ("placement", "exact-milp", SMALL_ROUND, _best_placement, "packgap.models.placement.milp.build_milp"),
        ("placement", "exact-cpsat", SMALL_ROUND, _best_placement, "packgap.models.placement.cpsat.build_cpsat"),
    ],
)
def test_a_model_that_cannot_be_built_in_time_answers_with_the_best_heuristic(
    monkeypatch: pytest.MonkeyPatch,
    family: str,
    method: str,
    options: dict[str, int],
    heuristic: Callable[[object], object],
    builder: str,
) -> None:
    """Issue 17, item 3: a time limit too short to build the model is a timeout that still
    carries the family's best heuristic answer and its cheapest valid bound. The heuristics run
    under the limit as well (a 1 ms limit may cut them: tests below and the method contract),
    so here the model's build is what runs out of time."""
    from packgap.analysis import registry

    monkeypatch.setattr(builder, cannot_build)
    kit = registry.kits()[family]
    instance = registry.generator(family).build(options)
    result = solve(kit.family, instance, registry.method(family, method), options=SolveOptions(time_limit=60.0))
    assert result.status == Status.TIMEOUT, result.message
    assert result.objective == pytest.approx(kit.family.evaluate(instance, heuristic(instance)).objective, rel=1e-12)
    assert result.bound is not None and result.objective is not None and 0 < result.bound <= result.objective


@pytest.mark.parametrize("method", ["exact-milp", "exact-cpsat"])
def test_placement_stops_its_heuristics_at_the_deadline_and_keeps_what_finished(
    monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """Before, PAL, PM-First and the cells ran outside the limit (2,048 GPUs, 300 jobs: 146 s
    under a 1 s limit). A PM-First that would take a minute is cut at the 0.5 s deadline; PAL
    had finished, so its placement is the answer. With PAL cut too, nothing finished: PAL then
    runs to its end after the deadline, so that the timeout still carries an answer."""
    from packgap.analysis import registry
    from packgap.heuristics.placement import pal
    from packgap.placement import FAMILY as PLACEMENT

    instance = registry.generator("placement").build(SMALL_ROUND)
    monkeypatch.setattr("packgap.analysis.placement.runs.pm_first", works_a_minute)
    options = SolveOptions(time_limit=0.5)
    kept = solve(registry.family("placement"), instance, registry.method("placement", method), options=options)
    assert kept.status == Status.TIMEOUT and kept.wall_s < 60
    assert "while placing by PAL and PM-First" in kept.message and kept.bound is None
    assert kept.objective == pytest.approx(PLACEMENT.evaluate(instance, pal(instance, 0)).objective, rel=1e-12)
    calls: list[int] = []

    def pal_cut_first(inst: object, seed: int) -> object:
        calls.append(seed)
        if len(calls) == 1:
            works_a_minute()
        return pal(inst, seed)  # type: ignore[arg-type]

    monkeypatch.setattr("packgap.analysis.placement.runs.pal", pal_cut_first)
    late = solve(registry.family("placement"), instance, registry.method("placement", method), options=options)
    assert late.status == Status.TIMEOUT and late.wall_s < 60 and len(calls) == 2
    assert "placement = PAL, run after the deadline (no placement had finished)" in late.message
    assert late.objective == kept.objective


@pytest.mark.parametrize(
    ("method", "builder"),
    [
        ("exact-milp", "packgap.models.planning.milp.build_milp"),
        ("exact-cpsat", "packgap.analysis.planning.runs.cp_planning.build_cpsat"),
    ],
)
def test_planning_answers_with_the_plans_finished_by_the_deadline(
    monkeypatch: pytest.MonkeyPatch, method: str, builder: str
) -> None:
    """Before, Horn's flow ran before the limit was armed and MCHP, FIFO and EDF again after
    it had passed (2,000 groups: 6.7 s under a 1 s limit). A model that cannot be built in time
    leaves the best of the four plans with Horn's bound; an MCHP that would take a minute is
    cut at the 0.5 s deadline and leaves the better of FIFO and EDF, without a bound; with
    FIFO cut too, nothing finished and FIFO runs to its end after the deadline."""
    from packgap.analysis import registry
    from packgap.analysis.planning import runs
    from packgap.instances.planning.generator import generate

    instance = generate(64, seed=0)  # some groups late: Horn's bound is below every plan
    monkeypatch.setattr(builder, cannot_build)
    built = solve(FAMILY, instance, registry.method("planning", method), options=SolveOptions(time_limit=60.0))
    plans = [runs.mchp(instance), runs.fifo(instance), runs.edf(instance), runs.horn_flow(instance)[0]]
    assert built.status == Status.TIMEOUT and "MCHP, Horn's plan, bound = Horn's flow" in built.message
    assert built.objective == min(FAMILY.evaluate(instance, p).objective for p in plans)
    assert built.bound == runs.horn_flow(instance)[1]
    monkeypatch.setitem(runs.HEURISTICS, "mchp", works_a_minute)
    cut = solve(FAMILY, instance, registry.method("planning", method), options=SolveOptions(time_limit=0.5))
    assert cut.status == Status.TIMEOUT and cut.bound is None and cut.wall_s < 60
    assert "answer = best of FIFO, EDF, no bound" in cut.message
    assert cut.objective == min(FAMILY.evaluate(instance, p).objective for p in plans[1:3])
    monkeypatch.setitem(runs.HEURISTICS, "fifo", works_a_minute)
    late = solve(FAMILY, instance, registry.method("planning", method), options=SolveOptions(time_limit=0.5))
    assert "answer = FIFO, run after the deadline (no plan had finished), no bound" in late.message
    assert late.status == Status.TIMEOUT and late.objective == FAMILY.evaluate(instance, plans[1]).objective
