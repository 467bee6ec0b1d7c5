"""``cluster-philly``: Philly job summary rows -> cluster trace for ``simulate``."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.instances.packing import philly
from packgap.instances.placement import from_trace
from packgap.placement.trace import from_dict, to_dict
from tests.clirun import packgap
from tests.packing.test_trace_common import built
from tests.packing.test_trace_philly import TRACES, write_philly
from tests.placement.test_trace_common import write_variability


def test_tiny_file_with_profile_factors(tmp_path: Path) -> None:
    traces = write_variability(tmp_path / "traces")
    value = built("cluster-philly", write_philly(tmp_path), tmp_path / "c.json", traces=str(traces), gpus=16)
    assert [(j.id, j.submit_time, j.gpus) for j in value.jobs] == [
        ("r3", 0.0, 1),
        ("r4", 0.0, 4),
        ("r2", 2932.0, 1),
        ("r5", 6417.0, 16),
        ("r6", 10800.0, 2),
    ]
    assert value.cluster.num_gpus == 16 and value.name == "cluster-philly-n5-g16-profiles-s0"
    small = built(
        "cluster-philly",
        write_philly(tmp_path),
        tmp_path / "d.json",
        gpus=8,
        factors="synthetic",
        drop_wide=True,
        vc="6214e9",
    )
    assert [j.id for j in small.jobs] == ["r3", "r4"]


def test_cli_writes_a_trace_that_passes_check(tmp_path: Path) -> None:
    path, out = write_philly(tmp_path), tmp_path / "out.json"
    args = ("--gpus", "16", "--factors", "synthetic", "-o", str(out))
    done = packgap("instances", "from-trace", "cluster-philly", str(path), *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert packgap("instances", "check", str(out), cwd=tmp_path).returncode == 0
    # Synthetic factors here too: with the trace folder's, a clone without it stops at "no trace folder".
    small = ("--gpus", "8", "--factors", "synthetic", "-o", str(out))
    done = packgap("instances", "from-trace", "cluster-philly", str(path), *small, cwd=tmp_path)
    assert done.returncode == 2 and "line 5, column num_gpus" in done.stderr


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "philly.csv").exists(), reason="Philly trace not present")
def test_real_philly_summary_on_the_synergy_cluster() -> None:
    value = from_trace.build(
        philly.read(TRACES / "philly.csv"), "cluster-philly", 0, traces=TRACES.parent, max_jobs=500
    )
    assert len(value.jobs) == 500 and value.cluster.num_gpus == 256 and value.cluster.classes == ("A", "B", "C", "D")
    assert from_dict(to_dict(value)) == value
