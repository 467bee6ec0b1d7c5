"""Benchmark sizes: a small set runs in `make test` (benchmarks disabled, each body once) and
the larger set with `make bench` (PACKGAP_BENCH=large)."""

from __future__ import annotations

import os

LARGE = os.environ.get("PACKGAP_BENCH") == "large"


def sizes(small: list[int], large: list[int]) -> list[int]:
    return large if LARGE else small
