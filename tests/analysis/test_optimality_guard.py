"""A validated objective below a proven optimum or bound is a bug and must raise."""

from __future__ import annotations

from dataclasses import replace

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
    assert [r.best_found_gap for r in checked] == [0.0, 0.0]
    assert [r.certified_gap for r in checked] == [0.0, 0.0]


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


def _scoped(method: str, status: Status, objective: float, scope: str, bound: float | None = None) -> SolveResult:
    return SolveResult("sharing", method, "i", status, objective, bound, 0.0, "", "", 0, scope=scope)


def test_an_optimum_binds_only_its_own_class() -> None:
    """Issue 17, item 5: exact-bb's optimum holds over non-preemptive schedules; preemptive
    Tiresias may beat it, a non-preemptive policy may not."""
    exact = _scoped("exact-bb", Status.OPTIMAL, 100.0, "non-preemptive", bound=80.0)
    tiresias = _scoped("tiresias", Status.FEASIBLE, 95.0, "preemptive")
    fifo = _scoped("fifo", Status.FEASIBLE, 120.0, "non-preemptive")
    checked = {r.method: r for r in check_against_optimum([exact, tiresias, fifo])}
    assert checked["fifo"].certified_gap == pytest.approx(20 / 120)
    assert checked["fifo"].bound_source == "exact-bb optimum (non-preemptive)"
    # no proven preemptive optimum: Tiresias is certified by the bound valid for every policy
    assert checked["tiresias"].certified_gap == checked["tiresias"].certified_gap_all_classes == pytest.approx(15 / 95)
    assert checked["tiresias"].bound_source == "exact-bb bound (all classes)"
    assert checked["fifo"].certified_gap_all_classes == pytest.approx(40 / 120)
    assert checked["exact-bb"].certified_gap == 0 and checked["exact-bb"].certified_gap_all_classes == pytest.approx(
        0.2
    )
    with pytest.raises(OptimalityViolationError, match=r"sjf-bsbf on i: objective 95\.0 beats"):
        check_against_optimum([exact, _scoped("sjf-bsbf", Status.FEASIBLE, 95.0, "non-preemptive")])
    with pytest.raises(OptimalityViolationError, match="beats exact-bb's proven optimum"):
        check_against_optimum([_scoped("exact-bb", Status.OPTIMAL, 100.0, ""), tiresias])


def test_sharing_results_name_their_class(tmp_path) -> None:
    from packgap.analysis import registry
    from packgap.analysis.compare import compare_instance

    inst = registry.generator("sharing").build({"jobs": 4, "seed": 1, "nodes": 1})
    kit = registry.kit("sharing")
    methods = [registry.method("sharing", m) for m in ("fifo", "tiresias", "exact-bb")]
    results = {r.method: r for r in compare_instance(kit.family, inst, methods, SolveOptions(time_limit=30))}
    assert results["exact-bb"].status == Status.OPTIMAL and results["exact-bb"].scope == "non-preemptive"
    assert results["fifo"].scope == "non-preemptive" and results["tiresias"].scope == "preemptive"
    assert results["fifo"].certified_gap is not None and results["fifo"].certified_gap >= 0
    assert SolveResult.from_dict(results["fifo"].to_dict()) == results["fifo"]


def test_a_class_bound_binds_and_measures_only_its_own_class() -> None:
    """Issue 35: sharing's class bound holds over non-preemptive schedules only: it bounds and
    enters the certified gap of FIFO (same scope), while preemptive Tiresias may go below it and
    is certified by the bound valid for every class; the gap for all classes never takes it."""
    cls = replace(_scoped("class-bound", Status.FEASIBLE, 120.0, "non-preemptive"), class_bound=100.0)
    lp = _scoped("bound-lp", Status.FEASIBLE, 120.0, "", bound=80.0)
    tiresias = _scoped("tiresias", Status.FEASIBLE, 95.0, "preemptive")
    fifo = _scoped("fifo", Status.FEASIBLE, 125.0, "non-preemptive")
    checked = {r.method: r for r in check_against_optimum([cls, lp, tiresias, fifo])}
    assert checked["fifo"].certified_gap == pytest.approx(25 / 125)
    assert checked["fifo"].bound_source == "class-bound class bound (non-preemptive)"
    assert checked["fifo"].certified_gap_all_classes == pytest.approx(45 / 125)
    assert checked["tiresias"].certified_gap == checked["tiresias"].certified_gap_all_classes == pytest.approx(15 / 95)
    assert checked["tiresias"].bound_source == "bound-lp bound (all classes)"
    assert checked["class-bound"].gap == pytest.approx(20 / 120)
    with pytest.raises(OptimalityViolationError, match=r"sjf on i: objective 99\.0 beats class-bound's"):
        check_against_optimum([cls, _scoped("sjf", Status.FEASIBLE, 99.0, "non-preemptive")])
    assert SolveResult.from_dict(checked["class-bound"].to_dict()) == checked["class-bound"]
