"""PM-score binning per job class (PAL, section III-B, Fig. 5).

Per class, the GPUs' PM-scores are clustered into K bins and every GPU takes its bin's
centroid as PM-score. K is the one with the best mean silhouette (Rousseeuw 1987) over
K = 2..11, computed after setting aside the > 3-sigma outliers; outliers are not binned but
"assigned their own PM-score equal to the GPU's normalized performance".

Exact 1-D tools replace scikit-learn (DESIGN.md, "Known structure"):

* K-Means in one dimension is solved exactly by dynamic programming over the sorted values
  (Wang and Song 2011, Ckmeans.1d.dp); the optimal split points are monotone, so each DP
  layer is filled by divide and conquer in O(n log n) and one table serves every K.
* In one dimension K-Means clusters are contiguous runs of the sorted values, so a point's
  summed distance to a cluster is a difference of prefix sums: the silhouette costs
  O(n K) instead of scikit-learn's O(n^2) memory and time.

Readings chosen where section III-B is silent:

* Outliers are values more than 3 sample standard deviations (ddof = 1) from the mean, on
  both sides (``two_sided=False``: only slow outliers, as the PAL artifact does).
* "We similarly determine an optimal K value for the set of outliers" contradicts "assigned
  their own PM-score"; the latter is kept, so each outlier is its own bin.
* Fewer than 3 distinct inlier values leave no K in 2..n-1 to score: each distinct value is
  then its own bin (K = number of distinct values, no silhouettes).
* Equal silhouettes keep the smaller K.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from packgap.deadline import checked
from packgap.placement import PlacementInstance
from packgap.placement.simulator import Cluster

#: K swept by the silhouette search (section III-B: "sweeping through K from 2 to 11").
K_RANGE = range(2, 12)


@dataclass(frozen=True)
class ClassBins:
    """The binning of one class: inspectable bins, chosen K and every silhouette tried."""

    job_class: str
    k: int
    silhouettes: Mapping[int, float]
    centroids: tuple[float, ...]
    outliers: tuple[int, ...]
    scores: tuple[float, ...]

    @property
    def values(self) -> tuple[float, ...]:
        """The distinct binned PM-scores, best first: the columns V_1 < V_2 < ... of the
        L x V matrix (section III-C)."""
        return tuple(sorted(set(self.scores)))


def kmeans_1d(sorted_values: np.ndarray, k_max: int) -> list[np.ndarray]:
    """Exact 1-D K-Means for every K = 1..k_max (Wang and Song 2011).

    Returns, per K, the start index of each of the K contiguous clusters of
    ``sorted_values`` (so ``starts[0] == 0``) minimising the within-cluster sum of squares.
    """
    x = np.asarray(sorted_values, dtype=float)
    n = len(x)
    k_max = min(k_max, n)
    x = x - x.mean()
    p1 = np.concatenate(([0.0], np.cumsum(x)))
    p2 = np.concatenate(([0.0], np.cumsum(x * x)))

    def sse(j: np.ndarray, i: int) -> np.ndarray:
        s = p1[i] - p1[j]
        return p2[i] - p2[j] - s * s / (i - j)

    cost = np.full((k_max + 1, n + 1), np.inf)
    arg = np.zeros((k_max + 1, n + 1), dtype=np.int64)
    ends = np.arange(1, n + 1)
    cost[1, 1:] = p2[ends] - p1[ends] ** 2 / ends
    for k in checked(range(2, k_max + 1), 1):
        _fill_layer(cost[k - 1], cost[k], arg[k], sse, k, n)
    starts: list[np.ndarray] = [np.array([0])]
    for k in range(2, k_max + 1):
        cuts, i = [], n
        for layer in range(k, 1, -1):
            i = int(arg[layer, i])
            cuts.append(i)
        starts.append(np.array([0, *reversed(cuts)]))
    return starts


def _fill_layer(prev, cur, arg, sse, k: int, n: int) -> None:  # type: ignore[no-untyped-def]
    """cur[i] = min_j prev[j] + sse(j, i) over k-1 <= j < i, by divide and conquer on the
    monotone optimal j (the totally monotone structure Ckmeans.1d.dp exploits)."""
    stack = [(k, n, k - 1, n - 1)]
    while stack:
        lo, hi, jlo, jhi = stack.pop()
        if lo > hi:
            continue
        mid = (lo + hi) // 2
        js = np.arange(jlo, min(jhi, mid - 1) + 1)
        total = prev[js] + sse(js, mid)
        best = int(js[int(np.argmin(total))])
        cur[mid], arg[mid] = total.min(), best
        stack.append((lo, mid - 1, jlo, best))
        stack.append((mid + 1, hi, best, jhi))


def silhouette_1d(sorted_values: np.ndarray, starts: npt.ArrayLike) -> float:
    """Mean silhouette of contiguous clusters of sorted 1-D data (Rousseeuw 1987), exact.

    Same conventions as ``sklearn.metrics.silhouette_score``: a point alone in its cluster
    scores 0. Needs 2 <= K <= n - 1.
    """
    x = np.asarray(sorted_values, dtype=float)
    n = len(x)
    p = np.concatenate(([0.0], np.cumsum(x)))
    bounds = [*np.asarray(starts).tolist(), n]
    total = 0.0
    for c in range(len(bounds) - 1):
        s, e = bounds[c], bounds[c + 1]
        size = e - s
        if size == 1:
            continue
        i = np.arange(s, e)
        xi = x[i]
        own = (i - s) * xi - (p[i] - p[s]) + (p[e] - p[i + 1]) - (e - i - 1) * xi
        a = own / (size - 1)
        b = np.full(size, np.inf)
        for d in range(len(bounds) - 1):
            if d == c:
                continue
            lo, hi = bounds[d], bounds[d + 1]
            span = p[hi] - p[lo]
            dist = span - (hi - lo) * xi if d > c else (hi - lo) * xi - span
            b = np.minimum(b, dist / (hi - lo))
        denom = np.maximum(a, b)
        sil = np.divide(b - a, denom, out=np.zeros(size), where=denom > 0)
        total += float(sil.sum())
    return total / n


def outlier_mask(values: np.ndarray, *, two_sided: bool = True) -> np.ndarray:
    """True for values more than 3 sample standard deviations from the mean."""
    if len(values) < 2:
        return np.zeros(len(values), dtype=bool)
    dev = values - values.mean()
    limit = 3 * values.std(ddof=1)
    return (np.abs(dev) if two_sided else dev) > limit


def bin_class(job_class: str, scores: npt.ArrayLike, *, k_range: range = K_RANGE, two_sided: bool = True) -> ClassBins:
    """Bin one class's per-GPU PM-scores (section III-B)."""
    values = np.asarray(scores, dtype=float)
    out = outlier_mask(values, two_sided=two_sided)
    inlier_ids = np.flatnonzero(~out)
    order = inlier_ids[np.argsort(values[inlier_ids], kind="stable")]
    xs = values[order]
    distinct = len(np.unique(xs))
    ks = [k for k in k_range if 2 <= k <= min(distinct, len(xs) - 1)]
    silhouettes: dict[int, float] = {}
    if ks:
        table = kmeans_1d(xs, max(ks))
        silhouettes = {k: silhouette_1d(xs, table[k - 1]) for k in ks}
        k = max(ks, key=lambda kk: (silhouettes[kk], -kk))
        starts = table[k - 1]
    else:
        k = distinct
        starts = np.flatnonzero(np.r_[True, np.diff(xs) > 0])
    binned = values.copy()
    bounds = [*starts.tolist(), len(xs)]
    centroids = []
    for s, e in itertools.pairwise(bounds):
        centre = float(xs[s:e].mean())
        centroids.append(centre)
        binned[order[s:e]] = centre
    return ClassBins(
        job_class,
        k,
        silhouettes,
        tuple(centroids),
        tuple(int(g) for g in np.flatnonzero(out)),
        tuple(float(v) for v in binned),
    )


def bin_scores(instance: PlacementInstance | Cluster, *, two_sided: bool = True) -> dict[str, ClassBins]:
    """The binning of every class of a round's (or a simulated) cluster, over all its GPUs (the
    deadline in force checked per class)."""
    return {c: _cached_bins(c, tuple(instance.pm_scores[c]), two_sided) for c in checked(instance.classes, 1)}


@functools.lru_cache(maxsize=16)
def _cached_bins(job_class: str, scores: tuple[float, ...], two_sided: bool) -> ClassBins:
    """:func:`bin_class`, once per cluster: every round of a simulated trace has its cluster's
    scores, and binning 27,648 GPUs costs 9 s of CPU per round (measured)."""
    return bin_class(job_class, scores, two_sided=two_sided)
