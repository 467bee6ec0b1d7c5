"""The calibration loop of ``make bench-check``: a fixed mix of interpreter and NumPy work,
measured in the same run as every other benchmark, so that timings are compared as ratios to it
and the baseline holds across machines of different speed."""

from __future__ import annotations

import numpy as np


def calibration_work() -> float:
    """About 20 ms of dict/list/float work plus a small dense matrix product and sort."""
    table: dict[int, float] = {}
    total = 0.0
    for i in range(60_000):
        table[i % 997] = table.get(i % 997, 0.0) + i * 0.5
        total += table[i % 997] % 7.0
    rng = np.random.default_rng(0)
    a = rng.random((160, 160))
    total += float(np.sort((a @ a).ravel())[-1])
    return total


def test_machine_calibration(benchmark) -> None:
    assert benchmark(calibration_work) > 0
