"""``packing-synergy``: Synergy's headerless replay traces, durations = iterations x model time."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.errors import InstanceError, PackgapError
from packgap.instances.packing import synergy_replay
from tests.packing.test_trace_common import built, write_lines
from tests.traces import trace_path

TRACES = trace_path("synergy")


def write_synergy(folder: Path, rows: tuple[str, ...] | None = None) -> Path:
    rows = rows or ("0,alexnet,.123,3349,4", "1,gnmt,.286,26435,1", "2,res18,0.0,4686,2")
    path = write_lines(folder / "test_trace.csv", *rows)
    return path


def test_replay_trace_durations_and_instance(tmp_path: Path) -> None:
    path = write_synergy(tmp_path)
    trace = synergy_replay.read(path)
    assert [(r.id, r.submit_s, r.gpus, r.duration_s) for r in trace.records] == [
        ("0", 0.123, 4, round(3349 * 0.6, 6)),
        ("1", 0.286, 1, round(26435 * 0.12, 6)),
        ("2", 0.0, 2, round(4686 * 0.64, 6)),
    ]
    inst = built("packing-synergy", path, tmp_path / "y.json", seed=9)
    assert [(j.id, j.arrival, j.gpus) for j in inst.jobs] == [("2", 0.0, 2), ("0", 0.123, 4), ("1", 0.286, 1)]


def test_bad_rows_are_named(tmp_path: Path) -> None:
    path = write_synergy(tmp_path, ("0,resnet,1,10,1", "1,gnmt,x,0,1.5", ",gnmt,1,10,1", "0,gnmt,1,10,1"))
    with pytest.raises(InstanceError) as err:
        synergy_replay.read(path)
    assert {p.path for p in err.value.problems} == {
        "line 1, column model_name",
        "line 2, column arrival_time",
        "line 2, column num_iters",
        "line 2, column gpu_demand",
        "line 3, column job_id",
    }
    path = write_synergy(tmp_path, ("0,gnmt,1,10,1", "0,gnmt,2,10,1"))
    with pytest.raises(InstanceError, match=r"line 2, column job_id: duplicate id '0' \(line 1\)"):
        synergy_replay.read(path)
    path = write_synergy(tmp_path, ("0,gnmt,1,10",))
    with pytest.raises(
        PackgapError, match=r"test_trace\.csv line 1: column gpu_demand: missing \(the row ends early\)"
    ):
        synergy_replay.read(path)


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "test_trace.csv").exists(), reason="Synergy traces not present")
def test_real_replay_traces(tmp_path: Path) -> None:
    assert len(synergy_replay.read(TRACES / "test_trace.csv").records) == 8
    path = TRACES / "deploy_trace_static_100job_6_3_1100.0.csv"
    inst = built("packing-synergy", path, tmp_path / "y.json")
    assert len(inst.jobs) == 100 and {j.gpus for j in inst.jobs} == {1}
