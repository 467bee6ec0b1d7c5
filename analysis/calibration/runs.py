"""How the ``calibration`` methods run (declared in :mod:`packgap.analysis.calibration.methods`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from packgap.analysis.method import MethodOutput, RunContext
from packgap.calibration import FAMILY, CalibrationInstance
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


#: The fixed calibrations without GIMBAL (section 7.4's baselines).
FIXED: dict[str, Callable[[CalibrationInstance], Calibration]] = {
    "free-competition": free_competition,
    "liss-only": liss_only,
}


def run_fixed(name: str, instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
    return MethodOutput(FIXED[name](instance).solution(instance, {"evaluations": 1.0}), Status.FEASIBLE)


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


def _out_of_time(instance: CalibrationInstance, exc: TimeLimitReached, bound: float | None = None) -> MethodOutput:
    """A search stopped by its time limit: the better fixed calibration and the bound proven
    before it stopped, if any, status timeout."""
    answers = [fixed(instance).solution(instance, {"evaluations": 1.0}) for fixed in FIXED.values()]
    best = min(answers, key=lambda s: FAMILY.evaluate(instance, s).objective)
    return MethodOutput(best, Status.TIMEOUT, bound, message=f"{exc}; answer = the better of {' and '.join(FIXED)}")


def run_exact_grid(instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.calibration import implicit
    from packgap.models.calibration.grid import grid_options
    from packgap.models.calibration.layout import layout

    lay = layout(instance)
    options = grid_options(lay, instance.granularity)
    try:
        ctx.built()
        found = implicit.search(lay, options, ctx.params["max_points"], _checker(ctx))
    except TimeLimitReached as exc:
        return _out_of_time(instance, exc)
    return _proven(instance, lay, found)


def run_exact_frontier(instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.calibration.frontier import optimise
    from packgap.models.calibration.grid import grid_options
    from packgap.models.calibration.layout import layout

    lay = layout(instance)
    options = grid_options(lay, instance.granularity)
    try:
        ctx.built()
        found = optimise(lay, options, check=_checker(ctx))
    except TimeLimitReached as exc:
        return _out_of_time(instance, exc)
    return _proven(instance, lay, found)


def run_continuous_bound(instance: CalibrationInstance, ctx: RunContext) -> MethodOutput:
    from packgap.models.calibration.continuous import continuous_bound
    from packgap.models.calibration.frontier import optimise
    from packgap.models.calibration.grid import grid_options, shares
    from packgap.models.calibration.layout import layout

    lay = layout(instance)
    check = _checker(ctx)
    bound: float | None = None
    try:
        ctx.built()
        bound, evaluations = continuous_bound(lay, ctx.params["width"], ctx.params["cap"], check)
        found = optimise(lay, grid_options(lay, instance.granularity), check=check)
    except TimeLimitReached as exc:
        return _out_of_time(instance, exc, bound)
    cal = with_liss(instance, shares(lay, instance.granularity, found.choice))
    search = {"evaluations": float(evaluations + found.evaluations), "continuous_bound": bound}
    return MethodOutput(
        cal.solution(instance, search),
        Status.FEASIBLE,
        bound,
        message="bound over real-valued shares; solution: the optimum on the instance's grid",
        internal_objective=found.objective,
    )
