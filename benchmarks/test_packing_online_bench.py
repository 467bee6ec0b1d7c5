"""Online CUCKOO (dab+mchp re-planned every 60 s) over a whole section 4.1 arrival trace on the
Table 7 cluster (section 4.2).

The paper packs and plans a 2,000-job queue in under 3 s; an online run re-packs the waiting
queue at every round with a free GPU, so its cost grows with the rounds and with the queue
the load builds up (hundreds of jobs at 2,000 arrivals).
"""

from __future__ import annotations

import pytest

from benchmarks.conftest import short_rounds, sizes
from packgap.analysis.packing.online import simulate_pipeline
from packgap.instances.packing.generator import generate


@pytest.mark.parametrize("jobs", sizes([30], [30, 500, 2000]))
def test_online_dab_mchp(benchmark, jobs):
    instance = generate(jobs, seed=1)
    report = benchmark.pedantic(simulate_pipeline, args=(instance, "dab+mchp"), **short_rounds())
    benchmark.extra_info.update({k: report.metrics[k] for k in ("mean_jct_s", "replans", "max_queue")})
    assert report.metrics["replans"] > 0
