"""The transport relaxation of a PAL round: every free GPU goes to one job type (or idles),
each type receiving exactly its demand, at a per-(type, GPU) cost.

Both the Lagrangian's starting prices (``packgap.analysis.placement.exact_blocks.ascent``) and its
repair heuristic (``packgap.analysis.placement.exact_blocks.repair``) solve one: an exact min-cost flow
over integer costs on a ``resolution`` grid (``packgap.solvers.flow``); neither uses its value as a
bound.
"""

from __future__ import annotations

import numpy as np

from packgap.solvers.flow import min_cost_flow

#: Cost grid of the flow (its answers seed prices or a heuristic; no bound reads its value).
RESOLUTION = 1e-7


def transport(cost: np.ndarray, demand: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Assign each of ``n`` GPUs (columns of ``cost``, types x n) to a type so that type ``t``
    gets ``demand[t]`` GPUs; GPUs beyond the total demand idle at cost 0. Returns the type of
    every GPU (``len(demand)`` = idle) and the cost rows used, idle row last if any."""
    n = cost.shape[1]
    rows = cost if sum(demand) == n else np.vstack([cost, np.zeros(n)])
    need = demand if sum(demand) == n else [*demand, n - sum(demand)]
    if n == 0:
        return np.zeros(0, dtype=np.int64), rows
    k = len(need)
    tails = np.repeat(np.arange(k), n)
    heads = k + np.tile(np.arange(n), k)
    units = np.floor((rows - rows.min()).ravel() / RESOLUTION).astype(np.int64)
    flow = min_cost_flow(tails, heads, np.ones(k * n, dtype=np.int64), units, [*need, *([-1] * n)])
    return np.argmax(flow.flows.reshape(k, n), axis=0), rows


def potentials(rows: np.ndarray, assigned: np.ndarray) -> np.ndarray:
    """Dual prices of the types for an optimal assignment (complementary slackness: a GPU's
    own type is its cheapest after prices), by Bellman-Ford shortest paths over the types."""
    k, n = rows.shape
    slack = rows - rows[assigned, np.arange(n)]
    edge = np.full((k, k), np.inf)
    for t in range(k):
        if (assigned == t).any():
            edge[t] = slack[:, assigned == t].min(axis=1)
    price = np.zeros(k)
    for _ in range(k):
        price = np.minimum(price, (price[:, None] + edge).min(axis=0))
    return price
