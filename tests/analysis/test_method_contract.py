"""One contract test over every registered method of every family (scikit-learn's
``check_estimator`` idea): new families and methods get it for free.

For each kit, the small example instance of its first family generator is solved by every
method: the answer validates, the reported objective is the evaluator's, the same seed gives
the same bytes, the instance is not mutated, a tiny time limit gives a valid answer and not a crash,
and no heuristic beats a proven optimum or bound (``check_against_optimum`` raises).
"""

from __future__ import annotations

from typing import Any

import pytest

from packgap import jsonio
from packgap.analysis.kit import FamilyKit, check_options
from packgap.analysis.registry import kits
from packgap.analysis.run import check_against_optimum, solve
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions

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


@pytest.mark.parametrize(("family", "method"), CASES)
def test_method_contract(examples: dict[str, Any], family: str, method: str) -> None:
    kit = kits()[family]
    fam = kit.family
    instance = examples[family]
    before = jsonio.dumps(fam.instance_to_dict(instance))
    chosen = next(m for m in kit.methods if m.name == method)
    first = solve(fam, instance, chosen, options=OPTIONS)
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
