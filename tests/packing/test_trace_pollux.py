"""``packing-pollux``: Pollux workload CSVs, durations by the artifact's standalone-JCT rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.errors import InstanceError, PackgapError
from packgap.instances.packing import pollux
from packgap.instances.packing.pollux_jct import placement_of, read_profile, standalone_jct
from tests.packing.test_trace_common import built, write_lines
from tests.traces import trace_path

TRACES = trace_path()
HEADER = "name,time,application,num_replicas,batch_size"


def write_profiles(folder: Path, app: str = "cifar10") -> Path:
    """A ``throughput_profiles`` folder with one application: two batch sizes, two epochs,
    placements 1, 2 and 4, and an 8-replica scalability point."""
    root = folder / "throughput_profiles"
    (root / app).mkdir(parents=True, exist_ok=True)
    for batch, iterations in ((128, (10, 400)), (256, (5, 200))):
        rows = "".join(f"{i * 100},{it},0.5,1.0,1.0\n" for i, it in enumerate(iterations, start=1))
        (root / app / f"validation-{batch}.csv").write_text("progress,iteration,metric,grad_sqr,grad_var\n" + rows)
    (root / app / "placements.csv").write_text(
        "placement,local_bsz,step_time,sync_time\n1,32,0.1,0.0\n1,64,0.2,0.0\n2,32,0.12,0.02\n2,64,0.22,0.02\n"
        "4,32,0.15,0.05\n"
    )
    (root / app / "scalability.csv").write_text(
        "num_nodes,num_replicas,local_bsz,step_time,sync_time\n2,8,32,0.3,0.1\n2,8,64,0.5,0.1\n"
    )
    return root


def write_workload(folder: Path, rows: tuple[str, ...] | None = None, name: str = "workload-1.csv") -> Path:
    rows = rows or (
        "cifar10-0,107,cifar10,1,128",
        "cifar10-1,110,cifar10,2,256",
        "cifar10-2,135,cifar10,6,192",
        "cifar10-3,262,cifar10,8,256",
    )
    return write_lines(folder / name, HEADER, *rows)


def test_standalone_jct_by_hand(tmp_path: Path) -> None:
    profile = read_profile(write_profiles(tmp_path) / "cifar10")
    assert profile.iterations == {128: 400, 256: 200} and profile.max_local_bsz == 64
    # local 128 > 64: one accumulation step, atomic 64 at 0.2 s -> 0.4 s x 400 iterations.
    assert standalone_jct(profile, 1, 128) == pytest.approx(160.0)
    assert standalone_jct(profile, 2, 256) == pytest.approx(200 * (0.22 + 0.20))
    # placement 24 is not profiled: nearest replicas 4 (tie with 8 goes low); 300 iterations at B = 192.
    assert standalone_jct(profile, 6, 192) == pytest.approx(300 * 0.15)
    assert standalone_jct(profile, 8, 256) == pytest.approx(200 * 0.3)
    assert [placement_of(n) for n in (1, 4, 6, 13, 16)] == ["1", "4", "24", "1444", "4444"]
    with pytest.raises(PackgapError, match=r"outside the profiled 128\.\.256"):
        standalone_jct(profile, 1, 64)


def test_workload_jobs_and_instance(tmp_path: Path) -> None:
    profiles, path = write_profiles(tmp_path), write_workload(tmp_path)
    trace = pollux.read(path, profiles)
    assert [(r.id, r.submit_s, r.gpus) for r in trace.records][:2] == [("cifar10-0", 107.0, 1), ("cifar10-1", 110.0, 2)]
    assert [r.duration_s for r in trace.records] == pytest.approx([160.0, 84.0, 45.0, 60.0])
    inst = built("packing-pollux", path, tmp_path / "p.json", profiles=profiles, max_jobs=3)
    assert [j.arrival for j in inst.jobs] == [0.0, 3.0, 28.0] and [j.gpus for j in inst.jobs] == [1, 2, 6]


def test_bad_rows_and_profiles_are_named(tmp_path: Path) -> None:
    profiles = write_profiles(tmp_path)
    path = write_workload(tmp_path, ("ncf-0,1,ncf,1,256", "cifar10-1,x,cifar10,0,64", ",1,cifar10,1,128"))
    with pytest.raises(InstanceError) as err:
        pollux.read(path, profiles)
    assert {p.path for p in err.value.problems} == {
        "line 2, column application",
        "line 3, column time",
        "line 3, column num_replicas",
        "line 4, column name",
    }
    path = write_workload(tmp_path, ("cifar10-0,1,cifar10,1,64", "cifar10-0,2,cifar10,1,128"))
    with pytest.raises(InstanceError, match="line 2, column batch_size: cifar10: batch size 64"):
        pollux.read(path, profiles)
    (profiles / "cifar10" / "placements.csv").write_text("placement,local_bsz,step_time,sync_time\n20,32,0.1,0\n")
    with pytest.raises(InstanceError, match="line 2, column placement"):
        read_profile(profiles / "cifar10")


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "pollux" / "workloads").is_dir(), reason="Pollux workloads not present")
def test_real_pollux_workload(tmp_path: Path) -> None:
    path = TRACES / "pollux" / "workloads" / "workload-1.csv"
    trace = pollux.read(path, pollux.profiles_dir("pollux", None, TRACES))
    assert len(trace.records) == 160 and all(r.duration_s > 0 for r in trace.records)
    inst = built("packing-pollux", path, tmp_path / "p.json", traces=str(TRACES), drop_wide=True)
    assert len(inst.jobs) == sum(r.gpus <= 8 for r in trace.records)
