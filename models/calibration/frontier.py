"""Exact calibration optimum on the LGRR grid by merging Pareto frontiers GPU by GPU, job by job.

The structure (:mod:`packgap.models.calibration.layout`): the speeds on a shared GPU depend only on
its two shares, a partner job's step time only on its speed sum, J_max's only on its own.
So:

1. per shared GPU, the options (s, t) of the grid give speed pairs (partner b, J_max a);
2. per partner job, merging its GPUs' options by Minkowski sum and dropping every point that
   another beats in both b and a leaves the exact Pareto frontier of (sum b, sum a);
3. across jobs, each frontier point becomes (the job's objective term, sum a); merging job by
   job with the same dominance rule (term no larger, J_max speed no smaller) keeps every
   candidate that can be optimal, because each objective of section 5.2 combines the terms
   by a sum or a max and J_max's term falls as its speed sum grows;
4. the optimum adds J_max's term of the total J_max speed (solo GPUs at 100 %) and takes the
   least.

Every pruned point is dominated, so the answer equals the exhaustive search
(``tests/calibration/test_exact.py`` checks it). A front whose point count exceeds ``cap`` is
*relaxed* instead (:func:`relax`): each run of consecutive points is replaced by one point
that dominates them all, which keeps a valid lower bound but loses the solution
(:mod:`packgap.models.calibration.continuous` uses it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from packgap.models.calibration.layout import FloatArray, Layout

IntArray = NDArray[np.int64]
#: Candidate pairs formed at once by :func:`merge` (memory: a few arrays of this many rows).
CHUNK = 1 << 19


@dataclass(frozen=True)
class Front:
    """Points (x to minimise, y to maximise) and, per point, the option chosen on each GPU."""

    x: FloatArray
    y: FloatArray
    choice: IntArray

    def __len__(self) -> int:
        return len(self.x)


def pareto(x: FloatArray, y: FloatArray) -> IntArray:
    """Indices of the points no other point beats in both (x no larger and y no smaller), sorted by x."""
    order = np.lexsort((-y, x))
    ys = y[order]
    best_before = np.concatenate(([-np.inf], np.maximum.accumulate(ys)[:-1]))
    return np.asarray(order[ys > best_before], dtype=np.int64)


def prune(front: Front) -> Front:
    keep = pareto(front.x, front.y)
    return Front(front.x[keep], front.y[keep], front.choice[keep])


def relax(front: Front, cap: int) -> Front:
    """At most ``cap`` points, each dominating the run of Pareto points it replaces (no choices)."""
    if len(front) <= cap:
        return front
    runs = np.array_split(np.arange(len(front)), cap)
    x = np.array([front.x[r[0]] for r in runs])
    y = np.array([front.y[r[-1]] for r in runs])
    return Front(x, y, np.full((cap, 0), -1, dtype=np.int64))


def merge(
    left: Front,
    right: Front,
    x_of: Callable[[FloatArray, FloatArray], FloatArray],
    cap: int | None = None,
) -> tuple[Front, int]:
    """All pairs (x_of(x_left, x_right), y_left + y_right), pruned (and relaxed to ``cap``); and their count.

    Pairs are formed for slices of ``left`` of at most :data:`CHUNK` pairs and pruned slice by
    slice (the frontier of a union is the frontier of its parts' frontiers), so memory stays
    bounded however large the product is.
    """
    rows = max(1, CHUNK // max(1, len(right)))
    parts = []
    for start in range(0, len(left), rows):
        i, j = np.divmod(np.arange(min(rows, len(left) - start) * len(right)), len(right))
        i += start
        pairs = Front(x_of(left.x[i], right.x[j]), left.y[i] + right.y[j], np.hstack([left.choice[i], right.choice[j]]))
        parts.append(prune(pairs))
    front = prune(Front(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("x", "y", "choice"))))
    return (relax(front, cap) if cap is not None else front), len(left) * len(right)


@dataclass(frozen=True)
class Optimum:
    """The least objective, the option chosen on every shared GPU (exact runs only) and the points generated."""

    objective: float
    choice: IntArray
    evaluations: int


def optimise(
    lay: Layout,
    gpu_options: list[tuple[FloatArray, FloatArray]],
    cap: int | None = None,
    check: Callable[[], None] = lambda: None,
) -> Optimum:
    """The exact optimum (``cap`` None) or a valid lower bound over per-GPU options (a, b).

    ``gpu_options[i]`` holds the (J_max speed, partner speed) arrays of ``lay.shared[i]``;
    ``check`` is called between merges (it raises when a time limit is spent).
    """
    count = 0
    across = Front(np.zeros(1), np.zeros(1), np.zeros((1, 0), dtype=np.int64))
    order: list[int] = []
    for job in lay.partners:
        gpus = lay.gpus_of(job)
        inner = Front(np.zeros(1), np.zeros(1), np.zeros((1, 0), dtype=np.int64))
        for g in gpus:
            a, b = gpu_options[g]
            options = prune(Front(-b, a, np.arange(len(a), dtype=np.int64)[:, None]))
            inner, n = merge(inner, options, np.add, cap)
            count += n
            check()
        job_front = Front(lay.term(job)(-inner.x), inner.y, inner.choice)
        across, n = merge(across, prune(job_front), lay.combine, cap)
        count += n
        order += gpus
        check()
    total = lay.finish(lay.combine(across.x, lay.term(lay.big)(lay.solo_speed() + across.y)))
    best = int(np.argmin(total))
    choice = across.choice[best][np.argsort(order)] if cap is None else np.zeros(0, dtype=np.int64)
    return Optimum(float(total[best]), choice, count + len(total))
