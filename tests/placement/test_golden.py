"""Golden objectives of every placement heuristic, and the proven optimum, on three generated
rounds (STYLE.md: pymoo). A change in any of them means a policy, the binning, the generator or
the evaluator changed behaviour; update the numbers only on purpose."""

from __future__ import annotations

import pytest

from packgap.analysis.method import RunContext
from packgap.analysis.placement.methods import BY_NAME, METHODS
from packgap.analysis.run import solve
from packgap.instances.placement.rounds import generate_round
from packgap.placement import FAMILY, PlacementInstance
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions

ROUNDS = {
    "32 GPUs, 25 % held, work": lambda: generate_round(32, 10, 2, held=0.25, objective="work"),
    "64 GPUs": lambda: generate_round(64, 21, 1),
    "256 GPUs": lambda: generate_round(256, 50, 1),
}
GOLDEN = {
    "32 GPUs, 25 % held, work": {
        "pm-first": 50553.83249658,
        "pal": 38971.744679718,
        "packed-sticky": 53487.061817035,
        "packed-non-sticky": 53487.061817035,
        "random-sticky": 51886.598615146,
        "random-non-sticky": 51886.598615146,
        "pal+blocks": 38971.744679718,
        "optimum": 38734.415886537,
    },
    "64 GPUs": {
        "pm-first": 14.101858808,
        "pal": 13.40301965,
        "packed-sticky": 14.900333406,
        "packed-non-sticky": 14.900333406,
        "random-sticky": 20.389694541,
        "random-non-sticky": 20.389694541,
        "pal+blocks": 13.40301965,
        "optimum": 12.493046512,
    },
    "256 GPUs": {
        "pm-first": 57.555281571,
        "pal": 55.624487514,
        "packed-sticky": 64.63733643,
        "packed-non-sticky": 64.63733643,
        "random-sticky": 67.552996916,
        "random-non-sticky": 67.552996916,
        "pal+blocks": 55.268264969,
    },
}
HEURISTICS = [m for m in METHODS if not m.exact]


@pytest.fixture(scope="module")
def instances() -> dict[str, PlacementInstance]:
    return {name: build() for name, build in ROUNDS.items()}


def test_every_heuristic_has_a_golden_value() -> None:
    for table in GOLDEN.values():
        assert {m.name for m in HEURISTICS} == set(table) - {"optimum"}


@pytest.mark.parametrize("method", HEURISTICS, ids=lambda m: m.name)
@pytest.mark.parametrize("round_name", list(ROUNDS))
def test_golden_objective(instances, round_name: str, method) -> None:  # type: ignore[no-untyped-def]
    inst = instances[round_name]
    solution = method.run(inst, RunContext(SolveOptions(seed=0), method.resolve_params({}))).solution
    FAMILY.validate(inst, solution)
    assert FAMILY.evaluate(inst, solution).objective == pytest.approx(GOLDEN[round_name][method.name], abs=1e-8)


@pytest.mark.parametrize("round_name", [name for name, table in GOLDEN.items() if "optimum" in table])
def test_golden_optimum(instances, round_name: str) -> None:  # type: ignore[no-untyped-def]
    result = solve(FAMILY, instances[round_name], BY_NAME["exact-blocks"], options=SolveOptions(time_limit=60))
    assert result.status == Status.OPTIMAL and result.objective is not None
    assert result.objective == pytest.approx(GOLDEN[round_name]["optimum"], abs=1e-8)
    assert all(value >= result.objective - 1e-9 for value in GOLDEN[round_name].values())
