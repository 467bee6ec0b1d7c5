"""Golden objectives of every packing pipeline on one generated instance (STYLE.md: pymoo).

A change in any of them means a heuristic, the estimator, the generator or the evaluator
changed behaviour; update the numbers only on purpose.
"""

from __future__ import annotations

import pytest

from analysis.methods.base import RunContext
from analysis.methods.packing import PIPELINES
from instances.packing import generate
from packgap.packing import FAMILY
from solvers.outcome import SolveOptions

GOLDEN = {
    "dab+mchp": 0.336027984,
    "dab+fifo": 0.29134486,
    "dab+edf": 0.18056638,
    "blossom+mchp": 0.313115186,
    "blossom+fifo": 0.328788264,
    "blossom+edf": 0.182623767,
    "none+mchp": 0.147634774,
    "none+fifo": 0.092011763,
    "none+edf": 0.125331658,
}


def test_every_pipeline_has_a_golden_value() -> None:
    assert {m.name for m in PIPELINES} == set(GOLDEN)


@pytest.mark.parametrize("method", PIPELINES, ids=lambda m: m.name)
def test_golden_objective(method) -> None:  # type: ignore[no-untyped-def]
    inst = generate(40, 11)
    solution = method.run(inst, RunContext(SolveOptions(), method.resolve_params({}))).solution
    FAMILY.validate(inst, solution)
    assert FAMILY.evaluate(inst, solution).objective == pytest.approx(GOLDEN[method.name], abs=1e-8)
