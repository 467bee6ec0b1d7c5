"""One contract test over every registered method of every family (scikit-learn's
``check_estimator`` idea): new families and methods get it for free.

For each kit, the small example instance of its first family generator is solved by every
method: the answer validates, the reported objective is the evaluator's, the same seed gives
the same bytes, the instance is not mutated, a tiny time limit gives a valid answer and not a crash,
and no heuristic beats a proven optimum or bound (``check_against_optimum`` raises).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from packgap import jsonio
from packgap.analysis.kit import FamilyKit, check_options
from packgap.analysis.registry import kits
from packgap.analysis.run import check_against_optimum, solve
from packgap.result import SolveResult, Status
from packgap.solvers import catalogue
from packgap.solvers.outcome import SolveOptions
from tests.solvers.others import OTHER_SOLVERS, within_licence

OPTIONS = SolveOptions(time_limit=30.0, seed=3)
CASES = [(k.name, m.name) for k in kits().values() for m in k.methods]


def _example(kit: FamilyKit) -> Any:
    generators = [g for g in kit.generators if g.target == kit.name]
    assert generators, f"family {kit.name} has no generator of its own instances"
    gen = generators[0]
    return gen.build(check_options(gen.options, gen.example_options(), gen.name))


@pytest.fixture(scope="module")
def examples() -> dict[str, Any]:
    return {name: _example(kit) for name, kit in kits().items()}


@pytest.fixture(scope="module")
def first_runs() -> dict[tuple[str, str], SolveResult]:
    """Each method's first result under :data:`OPTIONS` (HiGHS), kept for the solver comparison."""
    return {}


@pytest.mark.parametrize(("family", "method"), CASES)
def test_method_contract(
    examples: dict[str, Any], first_runs: dict[tuple[str, str], SolveResult], family: str, method: str
) -> None:
    kit = kits()[family]
    fam = kit.family
    instance = examples[family]
    before = jsonio.dumps(fam.instance_to_dict(instance))
    chosen = next(m for m in kit.methods if m.name == method)
    first = first_runs[family, method] = solve(fam, instance, chosen, options=OPTIONS)
    assert first.status in (Status.OPTIMAL, Status.FEASIBLE, Status.TIMEOUT), first.message
    assert first.solution is not None
    solution = fam.solution_from_dict(first.solution)
    fam.validate(instance, solution)
    assert fam.evaluate(instance, solution).objective == first.objective
    assert first.build_s >= 0 and first.solve_s >= 0 and first.build_s + first.solve_s == pytest.approx(first.wall_s)
    again = solve(fam, instance, chosen, options=OPTIONS)
    assert jsonio.dumps(again.solution) == jsonio.dumps(first.solution)
    assert jsonio.dumps(fam.instance_to_dict(instance)) == before
    if chosen.exact:
        assert chosen.default_time_limit is not None
    if chosen.default_time_limit is not None:
        # A limit spent before the search keeps an answer: nothing already computed is lost.
        hurried = solve(fam, instance, chosen, options=SolveOptions(time_limit=1e-3, seed=3))
        assert hurried.status in (Status.OPTIMAL, Status.FEASIBLE, Status.TIMEOUT), hurried.message
        assert hurried.solution is not None, hurried.message
        fam.validate(instance, fam.solution_from_dict(hurried.solution))


@pytest.mark.parametrize("family", list(kits()))
def test_no_heuristic_beats_an_exact_bound(examples: dict[str, Any], family: str) -> None:
    kit = kits()[family]
    results = [solve(kit.family, examples[family], m, options=OPTIONS) for m in kit.methods]
    checked = check_against_optimum(results)
    assert any(m.exact for m in kit.methods), f"family {family} has no exact method"
    assert min(r.best_found_gap for r in checked if r.best_found_gap is not None) == 0.0
    # issue 33: every answer, heuristic or exact, is certified against the bounds proven beside it
    assert all(r.certified_gap is not None and r.bound_source for r in checked if r.objective is not None)


#: Methods that hand an LP or MILP to a solver, each run on every other back-end too.
SOLVER_CASES = [(k.name, m.name) for k in kits().values() for m in k.methods if m.solvers]
#: Relative difference allowed between two solvers' proven optima: HiGHS's optimum of packing's
#: big-M exact-milp on the example lies 1.8e-6 above SCIP's (and exact-ti's), within its tolerances.
SOLVERS_AGREE = 1e-5


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
@pytest.mark.parametrize(("family", "method"), SOLVER_CASES)
def test_exact_methods_agree_on_every_solver(
    examples: dict[str, Any], first_runs: dict[tuple[str, str], SolveResult], family: str, method: str, solver: str
) -> None:
    """The contract on another solver: a valid, scored answer with the solver's name and version,
    an optimum that agrees with HiGHS's, and neither answer below the other's bound; a tiny time
    limit still gives an answer."""
    kit = kits()[family]
    fam, instance = kit.family, examples[family]
    chosen = next(m for m in kit.methods if m.name == method)
    options = replace(OPTIONS, solver=solver)
    highs = first_runs.get((family, method)) or solve(fam, instance, chosen, options=OPTIONS)
    with within_licence(solver):
        other = solve(fam, instance, chosen, options=options)
    assert other.status in (Status.OPTIMAL, Status.FEASIBLE), other.message
    assert other.solution is not None and solver in other.solver.split("+")
    assert other.solver_version == catalogue.version(solver) and other.params["solver"] == solver
    fam.validate(instance, fam.solution_from_dict(other.solution))
    assert fam.evaluate(instance, fam.solution_from_dict(other.solution)).objective == other.objective
    check_against_optimum([highs, other])
    if highs.status == other.status == Status.OPTIMAL:
        assert other.objective == pytest.approx(highs.objective, rel=SOLVERS_AGREE)
    hurried = solve(fam, instance, chosen, options=replace(options, time_limit=1e-3))
    assert hurried.status in (Status.OPTIMAL, Status.FEASIBLE, Status.TIMEOUT), hurried.message
    assert hurried.solution is not None, hurried.message
