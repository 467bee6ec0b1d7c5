from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import silhouette_score

from packgap.heuristics.placement.pm_score import bin_class, kmeans_1d, outlier_mask, silhouette_1d


def _brute_sse(x: np.ndarray, k: int) -> float:
    best = np.inf
    for cuts in itertools.combinations(range(1, len(x)), k - 1):
        parts = np.split(x, cuts)
        best = min(best, sum(float(((p - p.mean()) ** 2).sum()) for p in parts))
    return best


def _sse(x: np.ndarray, starts: np.ndarray) -> float:
    return sum(float(((p - p.mean()) ** 2).sum()) for p in np.split(x, starts[1:]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.5, 3.0), min_size=2, max_size=9), st.integers(1, 4))
def test_kmeans_1d_is_exact(values: list[float], k: int) -> None:
    x = np.sort(np.asarray(values))
    k = min(k, len(x))
    starts = kmeans_1d(x, k)[k - 1]
    assert len(starts) == k and starts[0] == 0 and np.all(np.diff(starts) > 0)
    assert _sse(x, starts) == pytest.approx(_brute_sse(x, k), abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_silhouette_matches_sklearn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = np.sort(np.concatenate([rng.normal(1.0, 0.02, 150), rng.normal(1.3, 0.05, 40), rng.normal(2.5, 0.1, 5)]))
    for k, starts in enumerate(kmeans_1d(x, 6)[1:], start=2):
        labels = np.repeat(np.arange(k), np.diff([*starts, len(x)]))
        ours = silhouette_1d(x, starts)
        # In 1-D "manhattan" is the Euclidean distance without sklearn's |x|^2 - 2xy + |y|^2
        # shortcut, whose rounding alone moves the default score by ~2e-12.
        exact = silhouette_score(x.reshape(-1, 1), labels, metric="manhattan")
        assert ours == pytest.approx(exact, abs=1e-12)
        assert ours == pytest.approx(silhouette_score(x.reshape(-1, 1), labels), abs=1e-10)


def test_outliers_keep_their_own_score() -> None:
    rng = np.random.default_rng(3)
    scores = np.concatenate([rng.normal(0.95, 0.01, 40), rng.normal(1.05, 0.01, 40), [2.6]])
    bins = bin_class("A", scores)
    assert bins.outliers == (80,)
    assert bins.scores[80] == 2.6
    assert bins.k == 2
    assert set(bins.silhouettes) == set(range(2, 12))
    assert len(bins.values) == 3 and bins.values[-1] == 2.6
    assert bins.centroids[0] == pytest.approx(scores[:40].mean())


def test_few_distinct_values_each_get_a_bin() -> None:
    bins = bin_class("C", [1.2, 1.0])
    assert bins.k == 2 and bins.silhouettes == {} and bins.values == (1.0, 1.2)
    assert bin_class("C", [1.0, 1.0, 1.2, 1.2]).silhouettes == {2: 1.0}


def test_one_sided_outliers() -> None:
    x = np.array([1.0] * 30 + [0.0, 9.0])
    x[:15] += 0.01
    assert outlier_mask(x)[-1]
    assert not outlier_mask(x, two_sided=False)[30]
