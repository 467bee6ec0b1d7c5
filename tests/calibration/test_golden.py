"""Golden objectives of every calibration method on Table 3's JC5 at a 25 % grid (STYLE.md: pymoo).

A change means a method, the anchor table, the throughput model or the evaluator changed
behaviour; update the numbers only on purpose. (At 25 % the exhaustive grid has 25^4 points.)
"""

from __future__ import annotations

import pytest

from packgap.analysis.calibration.methods import METHODS
from packgap.analysis.method import RunContext
from packgap.calibration import FAMILY
from packgap.instances.calibration.jobsets import table3
from packgap.solvers.outcome import SolveOptions

GOLDEN = {
    "gimbal": 6075.176958,
    "gimbal-full": 6075.176958,
    "free-competition": 6573.612408,
    "liss-only": 6417.72299,
    "exact-grid": 5801.443155,
    "exact-frontier": 5801.443155,
    "continuous-bound": 5801.443155,
}


def test_every_method_has_a_golden_value() -> None:
    assert {m.name for m in METHODS} == set(GOLDEN)


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name)
def test_golden_objective(method) -> None:  # type: ignore[no-untyped-def]
    inst = table3("JC5", granularity=25.0)
    solution = method.run(inst, RunContext(SolveOptions(), method.resolve_params({}))).solution
    FAMILY.validate(inst, solution)
    assert FAMILY.evaluate(inst, solution).objective == pytest.approx(GOLDEN[method.name], abs=1e-5)
