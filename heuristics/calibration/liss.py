"""Lossless input sample stealing (LISS), GIMBAL section 4.1, after LB-BSP (Chen et al. 2020).

LISS keeps a job's global batch B and moves samples from slow workers to fast ones. A worker
holding b samples computes for b / v seconds, so the step ends at c + max_w b_w / v_w.

* :func:`liss_split` gives each worker B v_w / sum(v): every worker finishes at once and the
  step takes the closed form c + B / sum(v) (:func:`packgap.calibration.speed.liss_step`);
  fractional samples are the model's (DESIGN.md: "the samples of a step are split in
  proportion to worker speed").
* :func:`integer_split` is the best split into whole samples: start from the floors of the
  proportional split and hand the rest, one sample at a time, to the worker that would then
  finish first (a greedy that is optimal for a bottleneck objective with nondecreasing
  per-worker costs). Its compute time exceeds the closed form by less than one sample on the
  slowest worker (checked by brute force in ``tests/calibration/test_liss.py``).
* :func:`equal_split` is what a job does without LISS: B / n per worker (stragglers stay).

Example
-------
>>> liss_split(12, [1.0, 2.0, 3.0])
[2.0, 4.0, 6.0]
>>> integer_split(5, [1.0, 2.0])
[2, 3]
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence


def liss_split(batch: float, speeds: Sequence[float]) -> list[float]:
    """Samples in proportion to speed (workers of speed 0 get none)."""
    total = sum(speeds)
    return [batch * v / total for v in speeds]


def equal_split(batch: float, workers: int) -> list[float]:
    return [batch / workers] * workers


def integer_split(batch: int, speeds: Sequence[float]) -> list[int]:
    """The whole-sample split minimising max_w b_w / v_w (workers of speed 0 get none)."""
    total = sum(speeds)
    counts = [math.floor(batch * v / total) if v > 0 else 0 for v in speeds]
    heap = [((b + 1) / v, w) for w, (b, v) in enumerate(zip(counts, speeds, strict=True)) if v > 0]
    heapq.heapify(heap)
    for _ in range(batch - sum(counts)):
        _, w = heapq.heappop(heap)
        counts[w] += 1
        heapq.heappush(heap, ((counts[w] + 1) / speeds[w], w))
    return counts
