"""Certified gaps of the sharing family's best policy (issue 18.2): the best of FIFO, SJF,
Tiresias, SJF-FFS and SJF-BSBF against the rate LP bound (and the cheap bound), both valid
with and without preemption (:mod:`packgap.analysis.sharing.certified`).

Recorded: ``gap`` (best - bound) / best with the rate LP, ``cheap_gap`` with the cheap bound,
the LP's seconds and peak memory. The default set is one 6-job README instance;
``PACKGAP_BENCH=large`` runs the README's 6- and 8-job instances (seeds 1-10) and 240-job /
64-GPU generated workloads (seeds 1-5). Measured on the loaded 2-core machine: mean gap 6 jobs
19.9 % (cheap) -> 16.4 % (LP, 0.1-3 s each), 8 jobs 22.8 % -> 18.0 %; 240 jobs 13.6 % -> 13.6 %
(the LP never beats the solo-time bound there; 32-206 s each with 24 slots, over the issue's
60 s). Targets of the issue (5 %, 8 %, 8 %) not reached.
"""

from __future__ import annotations

import pytest

from benchmarks.conftest import LARGE, PeakRss
from packgap.analysis.sharing.certified import measure

SMALL = [(n, seed, False) for n in ((6, 8) if LARGE else (6,)) for seed in (range(1, 11) if LARGE else [4])]
CASES = SMALL + ([(240, seed, True) for seed in range(1, 6)] if LARGE else [])


@pytest.mark.parametrize(("jobs", "seed", "generated"), CASES)
def test_certified_gap(benchmark, jobs, seed, generated):
    with PeakRss() as peak:
        row = benchmark.pedantic(measure, args=(jobs, seed, generated), rounds=1)
    assert 0 <= row.gap <= row.cheap_gap + 1e-12
    benchmark.extra_info.update(gap=row.gap, cheap_gap=row.cheap_gap, seconds=row.seconds, peak_rss_mb=peak.mb)
