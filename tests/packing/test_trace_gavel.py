"""``packing-gavel``: Gavel's 7-field per-VC ``.trace`` files and ``philly_job_distribution.csv``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap.errors import InstanceError, PackgapError
from packgap.instances.packing import gavel
from tests.packing.test_trace_common import built, write_lines
from tests.traces import trace_path

TRACES = trace_path()
#: Old-layout V100 throughputs (steps/s); the Transformer value is Gavel's.
RATES = {"Transformer (batch size 128)": 5.771210833383417, "A3C": 8.0}


def write_gavel(folder: Path, rows: tuple[str, ...] | None = None) -> tuple[Path, Path]:
    """A 3-job ``.trace`` (one of 16 GPUs) and its throughput table."""
    table = folder / "tputs.json"
    table.write_text(json.dumps({"v100": {k: {"null": v} for k, v in RATES.items()}}), encoding="utf-8")
    rows = rows or (
        "Transformer (batch size 128)\tcd %s && python3 train.py\t-step\t1\t246378\t0.000000\t1",
        "A3C\tpython3 main.py\t-n\t1\t800\t120.500000\t2",
        "A3C\tpython3 main.py\t-n\t1\t80\t60.000000\t16",
    )
    path = write_lines(folder / "0e4a51.trace", *rows)
    return path, table


def write_distribution(folder: Path) -> Path:
    path = folder / "philly_job_distribution.csv"
    path.write_text("duration_s,num_gpus\n860662.0,1\n7944.0,2\n6192.0,8\n", encoding="utf-8")
    return path


def test_durations_are_recovered_from_steps_and_throughputs(tmp_path: Path) -> None:
    path, table = write_gavel(tmp_path)
    trace = gavel.read_trace(path, gavel.read_throughputs(table))
    assert [(r.id, r.submit_s, r.gpus, r.duration_s) for r in trace.records] == [
        ("r1", 0.0, 1, 42691.0),
        ("r2", 120.5, 2, 100.0),
        ("r3", 60.0, 16, 10.0),
    ]
    inst = built("packing-gavel", path, tmp_path / "g.json", throughputs=table, drop_wide=True, seed=2)
    assert [(j.id, j.arrival, j.gpus) for j in inst.jobs] == [("r1", 0.0, 1), ("r2", 120.5, 2)]


def test_distribution_needs_an_arrival_rate(tmp_path: Path) -> None:
    path = write_distribution(tmp_path)
    with pytest.raises(PackgapError, match="--jobs-per-hour"):
        built("packing-gavel", path, tmp_path / "d.json")
    inst = built("packing-gavel", path, tmp_path / "d.json", jobs_per_hour=30.0, seed=1)
    assert [j.id for j in inst.jobs] == ["r2", "r3", "r4"] and [j.gpus for j in inst.jobs] == [1, 2, 8]
    assert inst.jobs[0].arrival == 0.0 < inst.jobs[1].arrival < inst.jobs[2].arrival
    other = built("packing-gavel", path, tmp_path / "e.json", jobs_per_hour=30.0, seed=2)
    assert [j.arrival for j in other.jobs] != [j.arrival for j in inst.jobs]
    trace_path, table = write_gavel(tmp_path)
    with pytest.raises(PackgapError, match="has arrival times"):
        built("packing-gavel", trace_path, tmp_path / "f.json", throughputs=table, jobs_per_hour=3.0)


def test_bad_rows_and_tables_are_named(tmp_path: Path) -> None:
    path, table = write_gavel(tmp_path, ("LM (batch size 5)\tc\t-s\t1\t10\t0\t1", "A3C\tc\t-n\t1\tx\t-1\t0"))
    with pytest.raises(InstanceError) as err:
        gavel.read_trace(path, gavel.read_throughputs(table))
    assert {p.path for p in err.value.problems} == {
        "line 1, column job_type",
        "line 2, column total_steps",
        "line 2, column arrival_time",
        "line 2, column scale_factor",
    }
    path.write_text("A3C\tc\t-n\t1\t10\t0\t1\t1\t-1\t0\n", encoding="utf-8")
    with pytest.raises(PackgapError, match=r"0e4a51\.trace:1: expected the 7 tab-separated fields"):
        gavel.read_trace(path, {})
    table.write_text(json.dumps({"v100": {"('A3C', 1)": {"null": 7.1}}}), encoding="utf-8")
    with pytest.raises(PackgapError, match="scale factor"):
        gavel.read_throughputs(table)
    table.write_text(json.dumps({"k80": {}}), encoding="utf-8")
    with pytest.raises(PackgapError, match="no 'v100' table"):
        gavel.read_throughputs(table)


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "gavel" / "traces").is_dir(), reason="Gavel traces not present")
def test_real_vc_trace_recovers_every_step_count(tmp_path: Path) -> None:
    rates = gavel.read_throughputs(TRACES / gavel.THROUGHPUTS)
    path = TRACES / "gavel" / "traces" / "msr" / "seed=0" / "6214e9.trace"
    trace = gavel.read_trace(path, rates)
    lines = gavel.read_tab_lines(path)
    assert len(trace.records) == len(lines) == 2000
    assert all(int(r.duration_s * rates[f[0]]) == int(f[4]) for r, (_, f) in zip(trace.records, lines, strict=True))
    inst = built("packing-gavel", path, tmp_path / "g.json", traces=str(TRACES), max_jobs=100, drop_wide=True)
    assert len(inst.jobs) == 100
