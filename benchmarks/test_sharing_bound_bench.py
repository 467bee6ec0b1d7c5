"""Certified gaps of the sharing family's best policy (issue 18.2): the best of FIFO, SJF,
Tiresias, SJF-FFS and SJF-BSBF against the rate LP bound (and the cheap bound), both valid
with and without preemption (:mod:`packgap.analysis.sharing.certified`).

Recorded: ``gap`` (best - bound) / best with the rate LP, ``cheap_gap`` with the cheap bound,
the LP's seconds and peak memory. The default set is one 6-job README instance;
``PACKGAP_BENCH=large`` runs the README's 6- and 8-job instances (seeds 1-10), 240-job / 64-GPU
generated workloads (seeds 1-5) and Pollux's published 1x workloads (160 jobs, files 1-8;
skipped without the trace folder). Measured on the loaded 2-core machine: mean gap 6 jobs 19.9 %
(cheap) -> 16.2 % (LP, 0.1-3 s each), 8 jobs 22.8 % -> 17.8 %; 240 jobs 13.6 % -> 13.5 % (the LP
beats the solo-time bound on seed 2 only; 19-52 s each with 24 slots at load ~10); Pollux 1x
54.5 % with the cheap bound, the LP stopped at 60 s on every file at that load (file 1 without a
limit: 98 s, 47.9 % -> 42.8 %). Targets of the issue (5 %, 8 %, 8 %) not reached.
``test_certified_gap_milp``: the completion-slot MILP, 6 jobs 10.7 %, 8 jobs 14.5 % (0.4-60 s
each, 3 of 20 stopped at 60 s on the loaded machine); no valid bound can go below 4.1 % and 8.1 %
there (``floor``: the best preemptive schedules of :mod:`packgap.analysis.sharing.ceiling`),
7.5 % at 240 jobs, 25.8 % on the Pollux files.
"""

from __future__ import annotations

import pytest

from benchmarks.conftest import LARGE, PeakRss
from packgap.analysis.sharing.certified import POLLUX, measure, measure_pollux
from packgap.errors import PackgapError
from packgap.instances.traces import trace_file

SMALL = [("readme", n, seed) for n in ((6, 8) if LARGE else (6,)) for seed in (range(1, 11) if LARGE else [4])]
WHOLE = [("generated", 240, seed) for seed in range(1, 6)] + [("pollux", 160, seed) for seed in range(1, 9)]
CASES = SMALL + (WHOLE if LARGE else [])


def _measure(kind: str, jobs: int, seed: int, milp: bool = False):
    return measure_pollux(seed, milp=milp) if kind == "pollux" else measure(jobs, seed, kind == "generated", milp=milp)


@pytest.mark.parametrize(("kind", "jobs", "seed"), CASES)
def test_certified_gap(benchmark, kind, jobs, seed):
    if kind == "pollux":
        try:
            trace_file(POLLUX.format(seed=seed))
        except PackgapError as exc:
            pytest.skip(str(exc))
    with PeakRss() as peak:
        row = benchmark.pedantic(_measure, args=(kind, jobs, seed), rounds=1)
    assert 0 <= row.gap <= row.cheap_gap + 1e-12
    benchmark.extra_info.update(
        gap=row.gap, cheap_gap=row.cheap_gap, floor=row.floor, seconds=row.seconds, peak_rss_mb=peak.mb
    )


@pytest.mark.parametrize(("kind", "jobs", "seed"), SMALL)
def test_certified_gap_milp(benchmark, kind, jobs, seed):
    """The completion-slot MILP (``--bound milp``) on the README's small instances."""
    with PeakRss() as peak:
        row = benchmark.pedantic(_measure, args=(kind, jobs, seed, True), rounds=1)
    assert 0 <= row.gap <= row.cheap_gap + 1e-12
    benchmark.extra_info.update(
        gap=row.gap, cheap_gap=row.cheap_gap, floor=row.floor, seconds=row.seconds, peak_rss_mb=peak.mb
    )
