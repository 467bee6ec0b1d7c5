"""``packing-sia``: Sia workload CSVs (Pollux's schema) with the Sia folder's profiles by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.instances.packing import pollux
from tests.packing.test_trace_common import built
from tests.packing.test_trace_pollux import write_profiles, write_workload
from tests.traces import trace_path

TRACES = trace_path()


def test_default_profiles_are_the_sia_folders(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    write_profiles(traces / "sia")
    path = write_workload(tmp_path, ("cifar10-0,401.0,cifar10,2,256", "cifar10-1,528.5,cifar10,8,256"))
    assert pollux.profiles_dir("sia", None, traces) == traces / "sia" / "throughput_profiles"
    inst = built("packing-sia", path, tmp_path / "s.json", traces=str(traces), gpu_types="A10:8")
    assert [(j.id, j.arrival, j.gpus) for j in inst.jobs] == [("cifar10-0", 0.0, 2), ("cifar10-1", 127.5, 8)]
    assert inst.name == "packing-sia-n2-s0"


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "sia" / "workloads").is_dir(), reason="Sia workloads not present")
def test_real_sia_workloads(tmp_path: Path) -> None:
    profiles = pollux.profiles_dir("sia", None, TRACES)
    for folder, jobs in (("saturn", 160), ("newtrace", 960), ("philly", 160)):
        trace = pollux.read(TRACES / "sia" / "workloads" / folder / "workload-1.csv", profiles)
        assert len(trace.records) == jobs and all(r.duration_s > 0 for r in trace.records)
    path = TRACES / "sia" / "workloads" / "saturn" / "workload-1.csv"
    inst = built("packing-sia", path, tmp_path / "s.json", traces=str(TRACES), drop_wide=True, max_jobs=50)
    assert len(inst.jobs) == 50
