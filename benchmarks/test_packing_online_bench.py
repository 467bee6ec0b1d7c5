"""Online CUCKOO (dab+mchp re-planned every 60 s) over a whole arrival trace (section 4.2).

The paper packs and plans a 2,000-job queue in under 3 s; an online run re-packs the waiting
queue at every round with free GPUs, so its cost grows with the queue the load builds up.
The Table 7 cluster (16 GPUs) is timed at the small size; larger traces run on Table 7 scaled
by 8 (128 GPUs), where the section 4.1 arrival rate keeps the queue bounded.
"""

from __future__ import annotations

import pytest

from analysis.online import simulate_pipeline
from benchmarks.conftest import sizes
from instances.packing import DEFAULT_GPU_TYPES, generate


def _cluster(scale: int) -> tuple[tuple[str, int], ...]:
    return tuple((name, count * scale) for name, count in DEFAULT_GPU_TYPES)


@pytest.mark.parametrize(("jobs", "scale"), [(n, 1 if n <= 30 else 8) for n in sizes([30], [30, 500, 2000])])
def test_online_dab_mchp(benchmark, jobs, scale):
    instance = generate(jobs, seed=1, gpu_types=_cluster(scale))
    report = benchmark.pedantic(simulate_pipeline, args=(instance, "dab+mchp"), rounds=1)
    benchmark.extra_info.update({k: report.metrics[k] for k in ("mean_jct_s", "replans", "max_queue")})
    assert report.metrics["replans"] > 0
