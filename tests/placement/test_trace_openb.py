"""``cluster-openb``: Alibaba openb GPU pods -> cluster trace (sharing pods take a whole GPU)."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.errors import PackgapError
from tests.packing.test_trace_common import built
from tests.packing.test_trace_openb import TRACES, write_openb


def test_gpu_pods_on_a_small_cluster(tmp_path: Path) -> None:
    value = built("cluster-openb", write_openb(tmp_path), tmp_path / "o.json", gpus=8, factors="synthetic")
    assert [(j.id, j.gpus) for j in value.jobs] == [
        ("openb-pod-0017", 8),
        ("openb-pod-0024", 1),
        ("openb-pod-0022", 1),
        ("openb-pod-0030", 4),
    ]
    assert value.jobs[-1].work == 1.0
    with pytest.raises(PackgapError, match="multiple of --gpus-per-node"):
        built("cluster-openb", write_openb(tmp_path), tmp_path / "p.json", gpus=10, factors="synthetic")


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "openb_pod_list_gpushare40.csv").exists(), reason="openb trace not present")
def test_real_gpushare_variant(tmp_path: Path) -> None:
    path = TRACES / "openb_pod_list_gpushare40.csv"
    value = built("cluster-openb", path, tmp_path / "o.json", traces=str(TRACES.parent), max_jobs=300)
    assert len(value.jobs) == 300 and max(j.gpus for j in value.jobs) <= 8
