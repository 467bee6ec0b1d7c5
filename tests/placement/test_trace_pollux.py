"""``cluster-pollux``: Pollux workloads -> cluster traces on Pollux's 16 x 4 GPUs by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.packing.test_trace_common import built
from tests.packing.test_trace_pollux import TRACES, write_profiles, write_workload


def test_workload_on_the_default_64_gpus(tmp_path: Path) -> None:
    profiles, path = write_profiles(tmp_path), write_workload(tmp_path)
    value = built("cluster-pollux", path, tmp_path / "c.json", profiles=profiles, factors="synthetic")
    assert value.cluster.num_gpus == 64 and [j.gpus for j in value.jobs] == [1, 2, 6, 8]
    assert [j.submit_time for j in value.jobs] == [0.0, 3.0, 28.0, 155.0]
    assert all(j.work * j.iter_time >= d for j, d in zip(value.jobs, (160.0, 84.0, 45.0, 60.0), strict=True))


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "pollux" / "workloads").is_dir(), reason="Pollux workloads not present")
def test_real_pollux_workload(tmp_path: Path) -> None:
    path = TRACES / "pollux" / "workloads-2.0" / "workload-3.csv"
    value = built("cluster-pollux", path, tmp_path / "c.json", traces=str(TRACES))
    assert len(value.jobs) == 320 and value.cluster.classes == ("A", "B", "C", "D")
