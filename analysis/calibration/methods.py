"""Methods of the ``calibration`` family: GIMBAL (Algorithm 1), its baselines, and three exact searches."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from packgap.analysis.method import Method, MethodOutput, RunContext
from packgap.calibration import CalibrationInstance
from packgap.errors import PackgapError, TimeLimitReached
from packgap.heuristics.calibration.gimbal import coordinate
from packgap.heuristics.calibration.search_cost import CostModel, objective_with_search, search_time
from packgap.heuristics.calibration.state import Calibration, free_competition, liss_only, with_liss
from packgap.result import Status

if TYPE_CHECKING:
    from packgap.models.calibration.frontier import Optimum
    from packgap.models.calibration.layout import Layout


def _checker(ctx: RunContext) -> Callable[[], None]:
    def check() -> None:
        left = ctx.time_left()
        if left is not None and left <= 0:
            raise TimeLimitReached(f"time limit of {ctx.options.time_limit:g} s reached")

    return check


def run_gimbal(instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
    p = ctx.params
    cost = CostModel(p["liss_iteration_s"], p["lgrr_iteration_s"], p["lgrr_switch_s"])
    found = coordinate(
        instance,
        granularity=p["granularity"] or None,
        early_exit=p["early_exit"],
        patience=p["patience"],
        reading=p["priority"],
        straggler_tol=p["straggler_tol"],
        subset=p["subset_priority"],
    )
    kinds = [s.mechanism for s in found.steps]
    search = {
        "evaluations": float(found.evaluations),
        "lgrr_iterations": float(kinds.count("lgrr")),
        "liss_iterations": float(kinds.count("liss")),
        "search_time_s": search_time(found.steps, cost),
        "switch_overhead_s": cost.lgrr_switch_s * kinds.count("lgrr"),
        "objective_with_search": objective_with_search(instance, found.steps, found.best, cost),
    }
    return MethodOutput(found.best.solution(instance, search), Status.FEASIBLE)


def _fixed(
    build: Callable[[CalibrationInstance], Calibration],
) -> Callable[[CalibrationInstance, RunContext], MethodOutput]:
    def run(instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
        return MethodOutput(build(instance).solution(instance, {"evaluations": 1.0}), Status.FEASIBLE)

    return run


def _proven(instance: CalibrationInstance, lay: Layout, found: Optimum) -> MethodOutput:
    """The grid optimum ``found`` as an answer; a non-finite optimum proves nothing (issue 17:
    an overflowed grid count once scanned no point and reported inf as an optimum's bound)."""
    from packgap.models.calibration.grid import shares

    if not math.isfinite(found.objective):
        raise PackgapError(f"the search found no finite objective ({found.objective}) after {found.evaluations} points")
    cal = with_liss(instance, shares(lay, instance.granularity, found.choice))
    return MethodOutput(
        cal.solution(instance, {"evaluations": float(found.evaluations)}),
        Status.OPTIMAL,
        found.objective,
        internal_objective=found.objective,
    )


def run_exact_grid(instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.calibration import implicit
    from packgap.models.calibration.grid import grid_options
    from packgap.models.calibration.layout import layout

    lay = layout(instance)
    options = grid_options(lay, instance.granularity)
    ctx.built()
    return _proven(instance, lay, implicit.search(lay, options, ctx.params["max_points"], _checker(ctx)))


def run_exact_frontier(instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.calibration.frontier import optimise
    from packgap.models.calibration.grid import grid_options
    from packgap.models.calibration.layout import layout

    lay = layout(instance)
    options = grid_options(lay, instance.granularity)
    ctx.built()
    return _proven(instance, lay, optimise(lay, options, check=_checker(ctx)))


def run_continuous_bound(instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.calibration.continuous import continuous_bound
    from packgap.models.calibration.frontier import optimise
    from packgap.models.calibration.grid import grid_options, shares
    from packgap.models.calibration.layout import layout

    lay = layout(instance)
    ctx.built()
    check = _checker(ctx)
    bound, evaluations = continuous_bound(lay, ctx.params["width"], ctx.params["cap"], check)
    found = optimise(lay, grid_options(lay, instance.granularity), check=check)
    cal = with_liss(instance, shares(lay, instance.granularity, found.choice))
    search = {"evaluations": float(evaluations + found.evaluations), "continuous_bound": bound}
    return MethodOutput(
        cal.solution(instance, search),
        Status.FEASIBLE,
        bound,
        message="bound over real-valued shares; solution: the optimum on the instance's grid",
        internal_objective=found.objective,
    )


GIMBAL_DEFAULTS: dict[str, Any] = {
    "granularity": 0.0,
    "early_exit": True,
    "patience": 3,
    "priority": "text",
    "subset_priority": "max",
    "straggler_tol": 0.02,
    "liss_iteration_s": 9.0,
    "lgrr_iteration_s": 39.0,
    "lgrr_switch_s": 3.6,
}

METHODS: tuple[Method, ...] = (
    Method(
        "calibration",
        "gimbal",
        "GIMBAL Algorithm 1: greedy squeeze/swell with LGRR + LISS and early exit (granularity 0 = instance's)",
        run_gimbal,
        defaults=GIMBAL_DEFAULTS,
    ),
    Method(
        "calibration",
        "gimbal-full",
        "GIMBAL Algorithm 1 without early exit (section 7.4, Fig. 15)",
        run_gimbal,
        defaults={**GIMBAL_DEFAULTS, "early_exit": False},
    ),
    Method(
        "calibration",
        "free-competition",
        "unequal packing without GIMBAL: every share 100 %, batches split evenly",
        _fixed(free_competition),
    ),
    Method("calibration", "liss-only", "free competition with LISS on every job (no LGRR)", _fixed(liss_only)),
    Method(
        "calibration",
        "exact-grid",
        "implicit enumeration of the whole LGRR grid (branch and bound), exact LISS split at every point",
        run_exact_grid,
        exact=True,
        defaults={"max_points": 20_000_000},
    ),
    Method(
        "calibration",
        "exact-frontier",
        "exact grid optimum by merging per-GPU / per-job Pareto frontiers of speed sums",
        run_exact_frontier,
        exact=True,
    ),
    Method(
        "calibration",
        "continuous-bound",
        "lower bound over real-valued shares (cell relaxation + frontier merge); solution = grid optimum",
        run_continuous_bound,
        exact=True,
        defaults={"width": 0.5, "cap": 400},
    ),
)
