"""Golden bytes of online runs: the speed-ups of pair scoring (per-kind times, whole-array
arithmetic, cached AM group iterations) must not move a single number of a run.

The hashes were taken after those speed-ups and the fix that made every equal-demand pair a
candidate (eq. 3); the speed-ups alone left the earlier hashes unchanged. A change means packing,
planning, the estimators, the generator or the simulator changed behaviour; update them
only on purpose.
"""

from __future__ import annotations

import hashlib

import pytest

from analysis.packing.online import report_to_dict, simulate_pipeline
from instances.packing.generator import generate
from packgap.jsonio import dumps

GOLDEN_SHA256 = {
    "dab+mchp": "bcedb8531dffce9f0bb5db85ab4ce5333a2d73aa7b47567bbec7b488ae092d99",
    "blossom+mchp": "6bed3edda3d639f4a5db40ed6141638556fd3e35a8eafc59eb6e1d779e328fd8",
    "dab+edf": "0ac89689ebec3ea0ebde6062110b0974a44d1426b04416405dec767eb95899ef",
}


@pytest.mark.parametrize("pipeline", sorted(GOLDEN_SHA256))
def test_online_run_bytes_are_golden(pipeline: str) -> None:
    report = simulate_pipeline(generate(60, seed=1), pipeline)
    digest = hashlib.sha256(dumps(report_to_dict(report)).encode()).hexdigest()
    assert digest == GOLDEN_SHA256[pipeline]
