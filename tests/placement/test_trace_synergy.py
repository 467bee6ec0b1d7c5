"""``cluster-synergy``: Synergy's replay traces -> cluster traces."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.packing.test_trace_common import built
from tests.packing.test_trace_synergy import TRACES, write_synergy


def test_replay_trace_on_eight_gpus(tmp_path: Path) -> None:
    value = built("cluster-synergy", write_synergy(tmp_path), tmp_path / "y.json", gpus=8, factors="synthetic", seed=2)
    assert [(j.id, j.submit_time, j.gpus) for j in value.jobs] == [("2", 0.0, 2), ("0", 0.123, 4), ("1", 0.286, 1)]
    assert value.jobs[1].work * value.jobs[1].iter_time >= 3349 * 0.6


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "test_trace.csv").exists(), reason="Synergy traces not present")
def test_real_test_trace(tmp_path: Path) -> None:
    value = built("cluster-synergy", TRACES / "test_trace.csv", tmp_path / "y.json", traces=str(TRACES.parent), gpus=16)
    assert len(value.jobs) == 8 and {j.gpus for j in value.jobs} == {1, 2, 4}
