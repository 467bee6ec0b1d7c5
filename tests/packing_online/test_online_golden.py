"""Golden bytes of online runs: the speed-ups of pair scoring (per-kind times, whole-array
arithmetic, cached AM group iterations) must not move a single number of a run.

The hashes were taken after those speed-ups and the fix that made every equal-demand pair a
candidate (eq. 3); the speed-ups alone left the earlier hashes unchanged. A change means packing,
planning, the estimators, the generator or the simulator changed behaviour; update them
only on purpose. The hashes were retaken when files moved to full-precision floats (issue 12);
the same runs rounded to 6 decimals still give the earlier hashes. The MCHP pipelines' hashes
were retaken when MCHP gained its ``gpu_order`` parameter (issue 19): the report's options list
``"gpu_order": "slots"``, every other byte of the run is as before.
"""

from __future__ import annotations

import hashlib

import pytest

from packgap.analysis.packing.online import report_to_dict, simulate_pipeline
from packgap.instances.packing.generator import generate
from packgap.jsonio import dumps

GOLDEN_SHA256 = {
    "dab+mchp": "e85ce038944845b6281d7c79eff6f957ef3fefe8373909d3f06deb972f1c508f",
    "blossom+mchp": "e2ae6a6ccc749c15521a15f0b120b5f0d696471eec129120d13ea2db01bea733",
    "dab+edf": "519dc1b59793413b13a5f06a931d96c82358c00ed251b98c2c6548499fe3834b",
}


@pytest.mark.parametrize("pipeline", sorted(GOLDEN_SHA256))
def test_online_run_bytes_are_golden(pipeline: str) -> None:
    report = simulate_pipeline(generate(60, seed=1), pipeline)
    digest = hashlib.sha256(dumps(report_to_dict(report)).encode()).hexdigest()
    assert digest == GOLDEN_SHA256[pipeline]
