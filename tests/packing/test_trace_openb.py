"""``packing-openb``: Alibaba openb pod lists -> packing instance; CPU pods skipped, lists without
times refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.errors import InstanceError, PackgapError
from packgap.instances.packing import openb
from tests.packing.test_trace_common import built, write_lines
from tests.traces import trace_path

TRACES = trace_path("alibaba-gpu-v2023-openb")
HEADER = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"


def write_openb(folder: Path, rows: tuple[str, ...] | None = None) -> Path:
    """Five pods: a sharing pod (220 milli-GPU), a CPU pod, a pending pod, an 8-GPU pod, a 4-GPU pod."""
    rows = rows or (
        "openb-pod-0022,4000,15258,1,220,,BE,Running,9679175,9973826,9679175",
        "openb-pod-0023,2000,4096,0,0,,LS,Running,9679000,9680000,9679000",
        "openb-pod-0024,8000,16384,1,1000,V100M16|V100M32,LS,Pending,9679100,9679400,",
        "openb-pod-0017,88000,327680,8,1000,,Burstable,Succeeded,9437497,10769854,9437497",
        "openb-pod-0030,32000,65536,4,1000,,LS,Failed,9700000,9700000,9700000",
    )
    return write_lines(folder / "openb_pod_list_default.csv", HEADER, *rows)


def test_gpu_pods_are_jobs_with_lifetimes(tmp_path: Path) -> None:
    trace = openb.read(write_openb(tmp_path))
    assert [(r.id, r.submit_s, r.gpus, r.duration_s) for r in trace.records] == [
        ("openb-pod-0022", 9679175.0, 1, 294651.0),
        ("openb-pod-0024", 9679100.0, 1, 300.0),
        ("openb-pod-0017", 9437497.0, 8, 1332357.0),
        ("openb-pod-0030", 9700000.0, 4, 0.0),
    ]
    inst = built("packing-openb", write_openb(tmp_path), tmp_path / "o.json", seed=4)
    assert [(j.id, j.arrival) for j in inst.jobs][:2] == [("openb-pod-0017", 0.0), ("openb-pod-0024", 241603.0)]
    assert inst.jobs[-1].iterations == 1


def test_lists_without_times_and_bad_pods_are_refused(tmp_path: Path) -> None:
    multigpu = tmp_path / "openb_pod_list_multigpu20.csv"
    multigpu.write_text("name,cpu_milli,memory_mib,num_gpu,gpu_milli\nopenb-pod-0000,12000,16384,1,1000\n")
    with pytest.raises(PackgapError, match=r"no creation_time / deletion_time.*multigpu"):
        built("packing-openb", multigpu, tmp_path / "m.json")
    bad = write_openb(
        tmp_path, ("p1,1,1,1.5,1000,,LS,Running,10,5,10", ",1,1,1,1000,,LS,Running,1,2,1", "p1,1,1,1,1,,LS,R,x,2,1")
    )
    with pytest.raises(InstanceError) as err:
        openb.read(bad)
    assert {p.path for p in err.value.problems} == {
        "line 2, column num_gpu",
        "line 2, column deletion_time",
        "line 3, column name",
        "line 4, column creation_time",
    }
    dup = write_openb(tmp_path, ("p1,1,1,1,1000,,LS,Running,1,2,1", "p1,1,1,1,1000,,LS,Running,3,4,3"))
    with pytest.raises(InstanceError, match=r"duplicate id 'p1' \(line 2\)"):
        openb.read(dup)


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "openb_pod_list_default.csv").exists(), reason="openb trace not present")
def test_real_default_pod_list(tmp_path: Path) -> None:
    trace = openb.read(TRACES / "openb_pod_list_default.csv")
    assert len(trace.records) == 8152 - 1088
    inst = built("packing-openb", TRACES / "openb_pod_list_default.csv", tmp_path / "o.json", max_jobs=200)
    assert len(inst.jobs) == 200 and {j.gpus for j in inst.jobs} <= {1, 2, 4, 8}
