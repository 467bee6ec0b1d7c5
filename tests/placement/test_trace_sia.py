"""``cluster-sia``: Sia workloads (Helios-Saturn, newtrace, scale) -> cluster traces."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.packing.test_trace_common import built
from tests.packing.test_trace_pollux import write_profiles, write_workload
from tests.packing.test_trace_sia import TRACES


def test_sia_workload_with_the_sia_profiles(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    write_profiles(traces / "sia")
    path = write_workload(tmp_path, ("cifar10-0,401.0,cifar10,2,256", "cifar10-1,528.5,cifar10,8,256"))
    value = built("cluster-sia", path, tmp_path / "s.json", traces=str(traces), factors="synthetic", gpus_per_node=8)
    assert [(j.id, j.submit_time, j.gpus) for j in value.jobs] == [("cifar10-0", 0.0, 2), ("cifar10-1", 127.5, 8)]
    assert (value.cluster.nodes, value.cluster.gpus_per_node) == (8, 8)


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "sia" / "workloads").is_dir(), reason="Sia workloads not present")
def test_real_scale_workload(tmp_path: Path) -> None:
    path = TRACES / "sia" / "workloads" / "scale" / "rate_10" / "workload-1.csv"
    value = built("cluster-sia", path, tmp_path / "s.json", traces=str(TRACES), gpus=256)
    assert len(value.jobs) > 0 and max(j.gpus for j in value.jobs) <= 16
