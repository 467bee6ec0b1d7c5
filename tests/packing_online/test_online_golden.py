"""Golden bytes of online runs: the speed-ups of pair scoring (per-kind times, whole-array
arithmetic, cached AM group iterations) must not move a single number of a run.

The hashes were taken from the code before those speed-ups. A change means packing,
planning, the estimators, the generator or the simulator changed behaviour; update them
only on purpose.
"""

from __future__ import annotations

import hashlib

import pytest

from analysis.online import report_to_dict, simulate_pipeline
from instances.packing import generate
from packgap.jsonio import dumps

GOLDEN_SHA256 = {
    "dab+mchp": "f96e619670cea0864f50075b1fa3eb5637e45f53e1541060ad7a806df0fd1160",
    "blossom+mchp": "01871e9535392a0da64fa77208613a8db6744d7a7a4e411760d778a90451778b",
    "dab+edf": "aa56a1c5aa40af1bf2faa30a2d70b4d64bbf7520dbfc2f98399020dd7eb9107d",
}


@pytest.mark.parametrize("pipeline", sorted(GOLDEN_SHA256))
def test_online_run_bytes_are_golden(pipeline: str) -> None:
    report = simulate_pipeline(generate(60, seed=1), pipeline)
    digest = hashlib.sha256(dumps(report_to_dict(report)).encode()).hexdigest()
    assert digest == GOLDEN_SHA256[pipeline]
