"""``cluster-gavel``: Gavel per-VC traces and the Philly (duration, GPUs) list -> cluster traces."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.packing.test_trace_common import built
from tests.packing.test_trace_gavel import TRACES, write_distribution, write_gavel


def test_trace_and_distribution(tmp_path: Path) -> None:
    path, table = write_gavel(tmp_path)
    value = built(
        "cluster-gavel", path, tmp_path / "g.json", throughputs=table, gpus=8, factors="synthetic", drop_wide=True
    )
    assert [(j.id, j.submit_time, j.gpus) for j in value.jobs] == [("r1", 0.0, 1), ("r2", 120.5, 2)]
    assert value.jobs[0].work * value.jobs[0].iter_time >= 42691.0
    dist = built(
        "cluster-gavel",
        write_distribution(tmp_path),
        tmp_path / "d.json",
        jobs_per_hour=4.0,
        gpus=8,
        factors="synthetic",
    )
    assert [j.gpus for j in dist.jobs] == [1, 2, 8]


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "gavel" / "traces").is_dir(), reason="Gavel traces not present")
def test_real_vc_trace(tmp_path: Path) -> None:
    path = TRACES / "gavel" / "traces" / "msr" / "seed=1" / "11cb48.trace"
    value = built("cluster-gavel", path, tmp_path / "g.json", traces=str(TRACES), max_jobs=200, drop_wide=True)
    assert len(value.jobs) == 200 and value.cluster.num_gpus == 256
