"""``packing-philly``: Philly job summary rows (philly/philly.csv format) -> packing instance."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.errors import InstanceError, PackgapError
from packgap.instances.packing import from_trace, philly
from packgap.packing.instance import from_dict, to_dict
from tests.clirun import packgap
from tests.packing.test_trace_common import built, write_lines
from tests.traces import trace_path

TRACES = trace_path("philly")
HEADER = "timestamp,duration,num_gpus,gpu_time,cluster"


def write_philly(folder: Path, rows: tuple[str, ...] | None = None) -> Path:
    """Five jobs in two VCs, out of time order as in the real file, one of 16 GPUs."""
    rows = rows or (
        "2017-10-09 07:01:55,66.0,1,66.0,11cb48",
        "2017-10-09 06:13:03,2951.0,1,2951.0,6214e9",
        "2017-10-09 06:13:03,7200.0,4,28800.0,6214e9",
        "2017-10-09 08:00:00,600.0,16,9600.0,6214e9",
        "2017-10-09 09:13:03,120.0,2,240.0,11cb48",
    )
    return write_lines(folder / "philly.csv", HEADER, *rows)


def test_tiny_file_in_submit_order_with_trace_demands(tmp_path: Path) -> None:
    inst = built("packing-philly", write_philly(tmp_path), tmp_path / "p.json", seed=3, drop_wide=True)
    assert [j.id for j in inst.jobs] == ["r3", "r4", "r2", "r6"]
    assert [j.arrival for j in inst.jobs] == [0.0, 0.0, 2932.0, 10800.0]
    assert [j.gpus for j in inst.jobs] == [1, 4, 1, 2]
    assert inst.name == "packing-philly-n4-s3"


def test_vc_max_jobs_and_wide_jobs(tmp_path: Path) -> None:
    path = write_philly(tmp_path)
    inst = built("packing-philly", path, tmp_path / "p.json", vc="11cb48")
    assert [j.id for j in inst.jobs] == ["r2", "r6"]
    assert [j.id for j in built("packing-philly", path, tmp_path / "q.json", max_jobs=2).jobs] == ["r3", "r4"]
    with pytest.raises(InstanceError) as err:
        built("packing-philly", path, tmp_path / "r.json")
    assert [p.path for p in err.value.problems] == ["line 5, column num_gpus"]
    wide = built("packing-philly", path, tmp_path / "s.json", gpu_types="V100:16", max_jobs=5)
    assert max(j.gpus for j in wide.jobs) == 16
    with pytest.raises(PackgapError, match=r"--vc 'zz'.*11cb48, 6214e9"):
        philly.read(path, "zz")


def test_bad_rows_name_line_and_column(tmp_path: Path) -> None:
    path = write_philly(tmp_path, ("2017-10-09 7:01:55,66.0,1,66.0,a", "2017-10-09 07:01:55,-3,0,0,a", "x,1,1.5,1,a"))
    with pytest.raises(InstanceError) as err:
        philly.read(path)
    assert {p.path for p in err.value.problems} == {
        "line 2, column timestamp",
        "line 3, column duration",
        "line 3, column num_gpus",
        "line 4, column timestamp",
        "line 4, column num_gpus",
    }
    (tmp_path / "cols.csv").write_text("timestamp,duration\n", encoding="utf-8")
    with pytest.raises(PackgapError, match=r"missing column.*num_gpus"):
        philly.read(tmp_path / "cols.csv")


def test_cli_writes_a_file_that_passes_check(tmp_path: Path) -> None:
    path, out = write_philly(tmp_path), tmp_path / "out.json"
    done = packgap("instances", "from-trace", "packing-philly", str(path), "--drop-wide", "-o", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert packgap("instances", "check", str(out), cwd=tmp_path).returncode == 0
    done = packgap("instances", "from-trace", "packing-philly", str(path), "-o", str(out), cwd=tmp_path)
    assert done.returncode == 2 and "line 5, column num_gpus" in done.stderr


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "philly.csv").exists(), reason="Philly trace not present")
def test_real_philly_summary(tmp_path: Path) -> None:
    trace = philly.read(TRACES / "philly.csv")
    assert len(trace.records) == 82_247
    inst = from_trace.build(trace, "packing-philly", 0, max_jobs=300, drop_wide=True)
    assert len(inst.jobs) == 300 and inst.jobs[0].arrival == 0.0
    assert {j.gpus for j in inst.jobs} <= {1, 2, 4, 8}
    assert from_dict(to_dict(inst)) == inst
