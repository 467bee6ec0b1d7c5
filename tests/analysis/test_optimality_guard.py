"""A validated objective below a proven optimum or bound is a bug and must raise."""

from __future__ import annotations

import pytest

from packgap.analysis.method import Method, MethodOutput
from packgap.analysis.run import check_against_optimum, solve
from packgap.errors import OptimalityViolationError, ValidationError
from packgap.planning import FAMILY, GpuSequence, PlanningSolution
from packgap.result import SolveResult, Status
from packgap.solvers.outcome import SolveOptions


def result(method: str, status: Status, objective: float, bound: float | None = None) -> SolveResult:
    return SolveResult("planning", method, "i", status, objective, bound, 0.0, "", "", 0)


def test_heuristic_below_proven_optimum_raises():
    with pytest.raises(OptimalityViolationError, match=r"h on i: objective 9\.0 beats exact.s proven optimum 10\.0"):
        check_against_optimum([result("exact", Status.OPTIMAL, 10.0, 10.0), result("h", Status.FEASIBLE, 9.0)])


def test_heuristic_below_a_bound_raises_and_ties_pass():
    with pytest.raises(OptimalityViolationError):
        check_against_optimum([result("exact", Status.TIMEOUT, 12.0, 10.0), result("h", Status.FEASIBLE, 9.5)])
    checked = check_against_optimum([result("exact", Status.OPTIMAL, 10.0, 10.0), result("h", Status.FEASIBLE, 10.0)])
    assert [r.primal_gap for r in checked] == [0.0, 0.0]


def test_method_claiming_a_bound_above_its_own_answer_raises(table5):
    plan = PlanningSolution((GpuSequence("A", 0, ("1",)), GpuSequence("B", 0, ("2",))))
    liar = Method(
        "planning", "liar", "claims a bound above its answer", lambda i, c: MethodOutput(plan, Status.OPTIMAL, 99.0)
    )
    with pytest.raises(OptimalityViolationError, match=r"below the proven bound 99\.0"):
        solve(FAMILY, table5, liar, options=SolveOptions())


def test_invalid_answer_is_an_error_not_a_number(table5):
    broken = Method(
        "planning", "broken", "forgets a group", lambda i, c: MethodOutput(PlanningSolution(()), Status.FEASIBLE)
    )
    with pytest.raises(ValidationError, match="2 group"):
        solve(FAMILY, table5, broken, options=SolveOptions())
