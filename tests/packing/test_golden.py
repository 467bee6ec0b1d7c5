"""Golden objectives of every packing pipeline on one generated instance (STYLE.md: pymoo).

A change in any of them means a heuristic, the estimator, the generator or the evaluator
changed behaviour; update the numbers only on purpose.
"""

from __future__ import annotations

import pytest

from packgap.analysis.method import RunContext
from packgap.analysis.packing.methods import PIPELINES
from packgap.heuristics.packing.scores import pair_scores
from packgap.instances.packing.generator import generate
from packgap.packing import FAMILY
from packgap.solvers.outcome import SolveOptions

GOLDEN = {
    "dab+mchp": 0.302344176,
    "dab+fifo": 0.236696693,
    "dab+edf": 0.176442549,
    "blossom+mchp": 0.304629084,
    "blossom+fifo": 0.261771248,
    "blossom+edf": 0.206126695,
    "muri+mchp": 0.374038513,
    "muri+fifo": 0.430517409,
    "muri+edf": 0.410059196,
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


def test_every_equal_demand_pair_is_a_candidate() -> None:
    """Eq. 3: any two jobs of equal GPU demand may share; a regression once dropped the pairs
    whose first job's kind was first seen after the second's (35 % of them here)."""

    inst = generate(60, 1)
    scores = pair_scores(inst, "am", 0.0)
    expected = {(i, j) for i in range(60) for j in range(i + 1, 60) if inst.jobs[i].gpus == inst.jobs[j].gpus}
    assert set(zip(scores.u.tolist(), scores.v.tolist(), strict=True)) == expected
