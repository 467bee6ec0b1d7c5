"""Shortest block walks of every job type under GPU prices (the pricing step of
``packgap.models.placement.block_bound``).

A type's walk (``packgap.models.placement.block_paths``) visits the free GPUs in ascending order of
its class's PM-score, state ``r`` = GPUs taken since the last complete block. Under prices
``pi`` (one per GPU) and ``mu`` (one per type, per block), a take costs ``-pi[g]`` and a take
that completes a block costs ``across_factor x score - mu`` more. The cheapest walk of every
type is one dynamic programme over the GPUs; all types of all classes advance together (one
vector of ``sum N_t`` states, each class reading its own ``v``-th GPU).

State ``j`` of type ``t`` with in-type state ``r``: its take arc comes from ``prev[j]``
(state ``r - 1`` mod ``N``) and completes a block when ``r = 0``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from packgap.models.placement.job_types import JobType, score_order
from packgap.placement import PlacementInstance


@dataclass(frozen=True)
class WalkGrid:
    """The shared layout: ``order[c, v]`` is the ``v``-th free GPU of class ``c``'s order and
    ``score[c, v]`` its PM-score; ``offset[t]`` is type ``t``'s first state."""

    types: tuple[JobType, ...]
    free: np.ndarray
    order: np.ndarray
    score: np.ndarray
    type_class: np.ndarray
    offset: np.ndarray
    state_class: np.ndarray
    prev: np.ndarray
    completion: np.ndarray

    @property
    def levels(self) -> int:
        return len(self.free)

    def sizes(self) -> np.ndarray:
        return np.array([t.gpus for t in self.types])


def walk_grid(instance: PlacementInstance, types: tuple[JobType, ...]) -> WalkGrid:
    free = np.array(instance.free_gpus(), dtype=np.int64)
    classes = list(instance.classes)
    order = np.array([score_order(free.tolist(), instance.pm_scores[c]) for c in classes], dtype=np.int64)
    score = np.array([np.asarray(instance.pm_scores[c])[order[i]] for i, c in enumerate(classes)])
    type_class = np.array([classes.index(t.job_class) for t in types], dtype=np.int64)
    sizes = [t.gpus for t in types]
    offset = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    prev = np.concatenate([offset[i] + (np.arange(n) - 1) % n for i, n in enumerate(sizes)]).astype(np.int64)
    completion = np.concatenate([(np.arange(n) == 0) * t.across_factor() for n, t in zip(sizes, types, strict=True)])
    state_class = np.repeat(type_class, sizes)
    return WalkGrid(types, free, order, score, type_class, offset, state_class, prev, completion)


@dataclass(frozen=True)
class Walks:
    """Cheapest walk of every type: its reduced cost ``value[t]``, the GPU levels it takes
    (``taken[v, t]``) and, when asked for, every node's cost-to-come ``ahead[v, j]``."""

    value: np.ndarray
    taken: np.ndarray
    ahead: np.ndarray | None


def take_costs(grid: WalkGrid, pi: np.ndarray, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per level ``v`` and state ``j``: the price of the GPU a take into ``j`` uses, its score,
    and ``j``'s block charge (``mu``, on completing states only)."""
    price = -pi[grid.order].T[:, grid.state_class]
    score = grid.score.T[:, grid.state_class]
    charge = np.where(grid.completion > 0, np.repeat(mu, grid.sizes()), 0.0)
    return price, score, charge


def cheapest_walks(grid: WalkGrid, pi: np.ndarray, mu: np.ndarray, *, keep_ahead: bool = False) -> Walks:
    """Forward dynamic programme; ``pi`` is indexed by GPU id, ``mu`` by type."""
    price, score, charge = take_costs(grid, pi, mu)
    n, states = grid.levels, len(grid.prev)
    f = np.full(states, np.inf)
    f[grid.offset[:-1]] = 0.0
    took = np.zeros((n, states), dtype=bool)
    ahead = np.empty((n + 1, states)) if keep_ahead else None
    for v in range(n):
        if ahead is not None:
            ahead[v] = f
        take = f[grid.prev] + price[v] + grid.completion * score[v] - charge
        took[v] = take < f
        f = np.where(took[v], take, f)
    if ahead is not None:
        ahead[n] = f
    sizes = grid.sizes()
    state = np.zeros(len(sizes), dtype=np.int64)
    taken = np.zeros((n, len(sizes)), dtype=bool)
    for v in range(n - 1, -1, -1):
        taken[v] = took[v, grid.offset[:-1] + state]
        state = np.where(taken[v], (state - 1) % sizes, state)
    return Walks(f[grid.offset[:-1]], taken, ahead)


def cost_to_go(grid: WalkGrid, pi: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """Backward dynamic programme: ``behind[v, j]`` = cheapest completion of a walk standing
    at level ``v`` in state ``j`` (it must end in state 0 after the last GPU)."""
    price, score, charge = take_costs(grid, pi, mu)
    n, states = grid.levels, len(grid.prev)
    nxt = np.empty(states, dtype=np.int64)
    nxt[grid.prev] = np.arange(states)
    b = np.full(states, np.inf)
    b[grid.offset[:-1]] = 0.0
    behind = np.empty((n + 1, states))
    behind[n] = b
    for v in range(n - 1, -1, -1):
        into = price[v] + grid.completion * score[v] - charge
        b = np.minimum(b, (into + b)[nxt])
        behind[v] = b
    return behind


def take_slack(grid: WalkGrid, pi: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """``slack[v, j]``: how much the cheapest walk that takes the ``v``-th GPU from state ``j``
    costs above its type's cheapest walk (inf: no walk can)."""
    ahead = cheapest_walks(grid, pi, mu, keep_ahead=True).ahead
    assert ahead is not None
    behind = cost_to_go(grid, pi, mu)
    price, score, charge = take_costs(grid, pi, mu)
    through = np.empty_like(price)
    through[:, grid.prev] = ahead[:-1][:, grid.prev] + price + grid.completion * score - charge + behind[1:]
    return through - np.repeat(ahead[-1][grid.offset[:-1]], grid.sizes())
