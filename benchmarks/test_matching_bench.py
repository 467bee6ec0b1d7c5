"""Maximum-weight matching on complete graphs (DESIGN.md: rustworkx 0.5 s at 500 jobs)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from benchmarks.conftest import sizes
from packgap.solvers.matching import max_weight_matching


@pytest.mark.parametrize("n", sizes([60], [200, 500]))
def test_rustworkx_complete_graph(benchmark, n):
    rng = np.random.default_rng(0)
    edges = [(u, v, float(rng.uniform(1, 2))) for u, v in itertools.combinations(range(n), 2)]
    matching = benchmark(max_weight_matching, n, edges)
    assert len(matching.pairs) == n // 2
