"""The free GPUs of one placement round, kept so that each job's pick costs about its own size
(issue 21: PAL on a Summit-sized cluster).

Before, every job sorted all free GPUs by PM-score and rebuilt the free list: O(jobs x free
GPUs) in Python, 25 s for one 27,648-GPU round. Here the free GPUs are a mask with per-node
counts, and each job class has a :class:`ClassView`: its GPUs presorted by (binned score, id)
once, a pointer past the taken prefix of that order, and per node the sorted score levels of
its free GPUs. A class's view catches up with the GPUs taken since it last looked in one
vectorised step, so a round whose jobs come class by class (Fig. 4) updates each view about
once per job of its own class. The picks are the same as the plain reading's, GPU order
included (tests/placement/test_placement_regression.py keeps that reading as the oracle).
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from packgap.errors import UnknownNameError
from packgap.heuristics.placement.lv_matrix import Traversal, traverse

TIE_BREAKS = ("gpu", "node-fit")


class FreePool:
    """The GPUs ``g`` with ``free[g]`` true, on nodes of ``per_node`` (GPU ``g`` on node
    ``g // per_node``; a last partial node is padded with GPUs that are never free).

    :meth:`take` only marks GPUs in a byte mask and logs them; the numpy mask, the per-node
    counts and every class view catch up with the log when they are next read."""

    def __init__(self, per_node: int, free: np.ndarray) -> None:
        self.per_node = per_node
        self.nodes = -(-len(free) // per_node)
        self.size = self.nodes * per_node
        self._mask = np.zeros(self.size, dtype=bool)
        self._mask[: len(free)] = free
        self.is_free = bytearray(self._mask.tobytes())
        self.log: list[int] = []
        self._mask_seen = 0
        self._counts = self._mask.reshape(self.nodes, per_node).sum(axis=1)
        self._counts_seen = 0
        self._views: dict[str, ClassView] = {}

    def take(self, gpus: Sequence[int]) -> None:
        """Mark ``gpus`` as no longer free."""
        for g in gpus:
            self.is_free[g] = 0
        self.log.extend(gpus)

    @property
    def mask(self) -> np.ndarray:
        """True for the free GPUs."""
        if self._mask_seen < len(self.log):
            self._mask[self.log[self._mask_seen :]] = False
            self._mask_seen = len(self.log)
        return self._mask

    @property
    def node_free(self) -> np.ndarray:
        """The count of free GPUs of every node."""
        if self._counts_seen < len(self.log):
            np.subtract.at(self._counts, np.array(self.log[self._counts_seen :]) // self.per_node, 1)
            self._counts_seen = len(self.log)
        return self._counts

    @classmethod
    def of(cls, num_gpus: int, per_node: int, free: Iterable[int]) -> FreePool:
        """The pool of the ``free`` GPUs among ``num_gpus``."""
        mask = np.zeros(num_gpus, dtype=bool)
        mask[np.fromiter(free, dtype=np.int64)] = True
        return cls(per_node, mask)

    def gpus(self) -> np.ndarray:
        """The free GPU ids, ascending."""
        return np.flatnonzero(self.mask)

    def node_gpus(self, node: int) -> list[int]:
        """The free GPUs of ``node``, ascending."""
        base = node * self.per_node
        return [g for g in range(base, base + self.per_node) if self.is_free[g]]

    def view(self, key: str, scores: tuple[float, ...]) -> ClassView:
        """The view of the free GPUs ranked by ``scores``, one per job class ``key``."""
        if key not in self._views:
            self._views[key] = ClassView(self, ranking(scores, self.size, self.per_node))
        return self._views[key]


@dataclass(frozen=True)
class Ranking:
    """How one class ranks a cluster's GPUs, the same every round: the distinct binned scores
    (best first) and each GPU's level among them (``len(values)`` for padding GPUs), the GPUs
    by (level, id), where each level starts in that order, and the levels by node."""

    values: tuple[float, ...]
    levels: np.ndarray
    level_of: list[int]
    ranked: np.ndarray
    order: list[int]
    level_starts: list[int]
    grid: np.ndarray


@functools.lru_cache(maxsize=32)
def ranking(scores: tuple[float, ...], size: int, per_node: int) -> Ranking:
    """The :class:`Ranking` of ``scores`` on ``size`` GPUs (cached: a simulation bins once)."""
    values = tuple(sorted(set(scores)))
    levels = np.full(size, len(values), dtype=np.int64)
    levels[: len(scores)] = np.searchsorted(values, scores)
    ranked = np.lexsort((np.arange(size), levels))[: len(scores)]
    return Ranking(
        values,
        levels,
        levels.tolist(),
        ranked,
        ranked.tolist(),
        np.searchsorted(levels[ranked], np.arange(len(values) + 1)).tolist(),
        levels.reshape(-1, per_node),
    )


class ClassView:
    """The free GPUs of a pool as one class ranks them: binned score levels 0 (best) .. K-1."""

    def __init__(self, pool: FreePool, rank: Ranking) -> None:
        self.pool = pool
        self.rank = rank
        self.values, self.level_of, self.order = rank.values, rank.level_of, rank.order
        self.pointer = 0
        self.seen = len(pool.log)
        self.level_free = np.bincount(rank.levels[pool.mask], minlength=len(self.values))
        self.node_levels = np.sort(np.where(pool.mask.reshape(rank.grid.shape), rank.grid, len(self.values)), axis=1)
        self._buckets: dict[int, list[list[int]]] = {}
        self._first_free = 0
        self._lowest: dict[int, int] = {}

    def sync(self) -> None:
        """Catch up with the GPUs taken since the last call."""
        log = self.pool.log
        if self.seen == len(log):
            return
        taken = np.array(log[self.seen :], dtype=np.int64)
        self.seen = len(log)
        self.level_free -= np.bincount(self.rank.levels[taken], minlength=len(self.values))
        nodes = np.unique(taken // self.pool.per_node)
        grid = self.rank.grid
        free = self.pool.mask.reshape(grid.shape)[nodes]
        rows = np.sort(np.where(free, grid[nodes], len(self.values)), axis=1)
        for demand, buckets in self._buckets.items():
            now, before = rows[:, demand - 1], self.node_levels[nodes, demand - 1]
            moved = np.flatnonzero((now != before) & (now < len(self.values)))
            for node, level in zip(nodes[moved].tolist(), now[moved].tolist(), strict=True):
                heapq.heappush(buckets[level], node)
        self.node_levels[nodes] = rows

    def _packing_node(self, demand: int) -> tuple[int, int]:
        """The best level any node reaches with its ``demand``-th best free GPU, and the lowest
        node id reaching it (``len(values)`` and 0 when no node has ``demand`` free GPUs).

        One bucket of node ids per level, a heap: a node's ``demand``-th best free level only
        rises within a round, so a node is pushed to each bucket at most once, found stale
        by its current level when it surfaces, and the lowest bucket never goes back down."""
        k = len(self.values)
        if demand not in self._buckets:
            column = self.node_levels[:, demand - 1]
            ordered = np.argsort(column, kind="stable")
            starts = np.searchsorted(column[ordered], np.arange(k + 1))
            self._buckets[demand] = [ordered[starts[v] : starts[v + 1]].tolist() for v in range(k)]
            self._lowest[demand] = 0
        buckets, level = self._buckets[demand], self._lowest[demand]
        while level < k:
            bucket = buckets[level]
            while bucket and self.node_levels[bucket[0], demand - 1] != level:
                heapq.heappop(bucket)
            if bucket:
                break
            level += 1
        self._lowest[demand] = level
        return level, buckets[level][0] if level < k else 0

    def best(self, demand: int, tie_break: str = "gpu") -> list[int]:
        """Algorithm 1: the ``demand`` free GPUs of best score, ties by ``tie_break``."""
        if tie_break == "gpu":
            return self._best_by_id(demand)
        if tie_break != "node-fit":
            raise UnknownNameError("tie_break", tie_break, TIE_BREAKS)
        return self._best_by_node_fit(demand)

    def _best_by_id(self, demand: int) -> list[int]:
        order, free, p, n = self.order, self.pool.is_free, self.pointer, len(self.order)
        while p < n and not free[order[p]]:
            p += 1
        self.pointer = p
        out: list[int] = []
        need = demand
        while need and p < n:
            g = order[p]
            p += 1
            if free[g]:
                out.append(g)
                need -= 1
        return out

    def _best_by_node_fit(self, demand: int) -> list[int]:
        """Level by level, free GPUs on nodes whose count of free same-level GPUs is closest to
        ``demand`` first, then by id (the PAL artifact's rule)."""
        self.sync()
        out: list[int] = []
        for k in np.flatnonzero(self.level_free).tolist():
            level = self.rank.ranked[self.rank.level_starts[k] : self.rank.level_starts[k + 1]]
            free = level[self.pool.mask[level]]
            _, where, counts = np.unique(free // self.pool.per_node, return_inverse=True, return_counts=True)
            fit = np.abs(counts[where] - demand)
            out += free[np.lexsort((free, fit))][: demand - len(out)].tolist()
            if len(out) == demand:
                break
        return out

    def packed_pick(self, demand: int, most_eligible: bool, l_across: float, traversal: Traversal) -> list[int] | None:
        """PAL's within-node step at its first L x V cell that packs ``demand`` GPUs on one node
        (see :mod:`packgap.heuristics.placement.pal`), or None when an across-node cell that
        admits ``demand`` GPUs comes first: either way the same answer as walking the cells one
        by one. A within cell of level k packs iff k reaches the best level some node reaches
        with its ``demand``-th best free GPU, an across cell iff ``demand`` free GPUs score at
        level k or better: both thresholds, so the first cell of each kind that passes is read
        off the walk's suffix minima."""
        self.sync()
        k_min, node = self._packing_node(demand)
        order = walk(self.values, l_across, traversal)
        first = order.within_from[k_min]
        if k_min == len(self.values) or first >= order.across_from[self._admitting(demand)]:
            return None
        k = order.within_level[first]
        if most_eligible:
            ties = np.flatnonzero(self.node_levels[:, demand - 1] == k_min)
            node = int(ties[int((self.node_levels[ties] <= k).sum(axis=1).argmax())])
        picks = [g for g in self.pool.node_gpus(node) if self.level_of[g] <= k_min]
        return picks[:demand]

    def _admitting(self, demand: int) -> int:
        """The best level k with ``demand`` free GPUs at level k or better (``len(values)``
        when fewer GPUs are free)."""
        while self._first_free < len(self.values) and not self.level_free[self._first_free]:
            self._first_free += 1
        total = 0
        for k, free in enumerate(self.level_free[self._first_free : self._first_free + demand].tolist()):
            total += free
            if total >= demand:
                return self._first_free + k
        cumulative = np.cumsum(self.level_free)
        return int(np.searchsorted(cumulative, demand))


@dataclass(frozen=True)
class Walk:
    """PAL's L x V walk by levels: ``within_from[k]`` / ``across_from[k]`` is the position of
    the first within-node / across-node cell of level k or worse (the walk's length when
    there is none; index ``len(values)`` for no level), ``within_level[p]`` the level of the
    within cell at position p."""

    within_from: list[int]
    across_from: list[int]
    within_level: dict[int, int]


@functools.lru_cache(maxsize=256)
def walk(values: tuple[float, ...], l_across: float, traversal: Traversal) -> Walk:
    """The :class:`Walk` of ``traverse`` over the distinct binned ``values`` for ``l_across``."""
    cells = traverse(values, l_across, traversal)
    level = {v: k for k, v in enumerate(values)}
    none = len(cells)
    within, across = [none] * (len(values) + 1), [none] * (len(values) + 1)
    for p, cell in enumerate(cells):
        first = across if cell.across else within
        first[level[cell.value]] = min(first[level[cell.value]], p)
    for k in range(len(values) - 1, -1, -1):
        within[k], across[k] = min(within[k], within[k + 1]), min(across[k], across[k + 1])
    return Walk(within, across, {p: level[c.value] for p, c in enumerate(cells) if not c.across})
