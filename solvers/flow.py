"""Minimum-cost flow and linear assignment.

``min_cost_flow`` runs OR-Tools ``SimpleMinCostFlow`` (integer costs; the caller scales) or
networkx's network simplex, which is 400-800x slower and kept as the reference for tests
(DESIGN.md). ``assignment`` runs scipy's ``linear_sum_assignment`` on a dense float matrix.
"""

from __future__ import annotations

import importlib.metadata
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from packgap.deadline import fits
from packgap.errors import PackgapError, SolverUnavailableError, UnknownNameError
from packgap.result import Status

FlowBackend = Literal["ortools", "networkx"]
IntArray = Sequence[int] | np.ndarray

#: Least seconds per arc an OR-Tools min-cost flow of :func:`capacitated_assignment` is
#: expected to take: measured 0.6-1.8 us from 50 k to 3.2 M arcs on the shared 2-core machine
#: (MCHP's and Horn's networks, 250 to 2,000 groups). The last large flow's own rate counts
#: when it was slower (a loaded machine).
FLOW_S_PER_ARC = 1e-6
#: Flows at least this large set the observed rate (smaller ones are dominated by set-up).
RATED_ARCS = 100_000
_last_rate = {"ortools": FLOW_S_PER_ARC}


@dataclass(frozen=True)
class FlowResult:
    """Optimal flow per arc (same order as the input arcs) and its integer cost."""

    status: Status
    cost: int | None
    flows: np.ndarray
    wall_s: float
    solver: str
    version: str


def min_cost_flow(
    tails: IntArray,
    heads: IntArray,
    capacities: IntArray,
    unit_costs: IntArray,
    supplies: IntArray,
    *,
    backend: FlowBackend = "ortools",
) -> FlowResult:
    """Route ``supplies`` (positive = source, negative = sink) at minimum integer cost."""
    if not len(tails) == len(heads) == len(capacities) == len(unit_costs):
        raise ValueError("tails, heads, capacities and unit_costs must have the same length")
    if sum(supplies) != 0:
        raise ValueError(f"supplies must sum to 0, got {sum(supplies)}")
    if backend == "ortools":
        return _ortools(tails, heads, capacities, unit_costs, supplies)
    if backend == "networkx":
        return _networkx(tails, heads, capacities, unit_costs, supplies)
    raise UnknownNameError("flow backend", str(backend), ["ortools", "networkx"])


def _ortools(tails, heads, capacities, unit_costs, supplies) -> FlowResult:  # type: ignore[no-untyped-def]
    try:
        from ortools.graph.python import min_cost_flow as mcf
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise SolverUnavailableError(f"OR-Tools min-cost flow cannot be imported: {exc}") from None
    start = time.perf_counter()
    smcf = mcf.SimpleMinCostFlow()
    arcs = smcf.add_arcs_with_capacity_and_unit_cost(
        np.asarray(tails, dtype=np.int64),
        np.asarray(heads, dtype=np.int64),
        np.asarray(capacities, dtype=np.int64),
        np.asarray(unit_costs, dtype=np.int64),
    )
    smcf.set_nodes_supplies(np.arange(len(supplies), dtype=np.int64), np.asarray(supplies, dtype=np.int64))
    code = smcf.solve()
    wall = time.perf_counter() - start
    version = importlib.metadata.version("ortools")
    if code == smcf.OPTIMAL:
        return FlowResult(Status.OPTIMAL, int(smcf.optimal_cost()), smcf.flows(arcs), wall, "ortools-mcf", version)
    status = Status.INFEASIBLE if code == smcf.INFEASIBLE else Status.ERROR
    return FlowResult(status, None, np.zeros(len(tails), dtype=np.int64), wall, "ortools-mcf", version)


def _networkx(tails, heads, capacities, unit_costs, supplies) -> FlowResult:  # type: ignore[no-untyped-def]
    import networkx as nx

    start = time.perf_counter()
    graph = nx.MultiDiGraph()
    for node, supply in enumerate(supplies):
        graph.add_node(node, demand=-int(supply))
    for i, (u, v, cap, cost) in enumerate(zip(tails, heads, capacities, unit_costs, strict=True)):
        graph.add_edge(u, v, key=i, capacity=int(cap), weight=int(cost))
    try:
        cost, flow = nx.network_simplex(graph)
    except nx.NetworkXUnfeasible:
        return FlowResult(
            Status.INFEASIBLE,
            None,
            np.zeros(len(tails), dtype=np.int64),
            time.perf_counter() - start,
            "networkx",
            nx.__version__,
        )
    flows = np.array([flow[u][v][i] for i, (u, v) in enumerate(zip(tails, heads, strict=True))], dtype=np.int64)
    return FlowResult(Status.OPTIMAL, int(cost), flows, time.perf_counter() - start, "networkx", nx.__version__)


def assignment(costs: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Minimum-cost assignment of every row to a distinct column (rows <= columns)."""
    if costs.ndim != 2 or costs.shape[0] > costs.shape[1]:
        raise ValueError(f"need a rows <= columns cost matrix, got shape {costs.shape}")
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(costs)
    return rows, cols, float(costs[rows, cols].sum())


def integer_costs(costs: np.ndarray, resolution: float, rows: int = 1) -> np.ndarray:
    """Floor ``costs / resolution`` to int64, so any flow's integer cost x resolution is a lower
    bound on its true cost (a certified bound even when costs are not on the grid).

    ``rows`` arcs may carry flow at once; their summed cost must stay inside int64.
    """
    scaled = np.floor(np.asarray(costs, dtype=float) / resolution + 1e-9)
    if np.abs(scaled).max(initial=0) * max(1, rows) > 2**62:
        raise PackgapError(f"costs too large for resolution {resolution}; use a coarser resolution")
    return scaled.astype(np.int64)


@dataclass(frozen=True)
class SlotAssignment:
    """Row r goes to column ``column[r]``; ``cost`` is the integer optimum."""

    status: Status
    column: np.ndarray
    cost: int | None
    wall_s: float
    solver: str
    version: str


def capacitated_assignment(
    costs: np.ndarray, capacities: np.ndarray, *, backend: FlowBackend = "ortools"
) -> SlotAssignment:
    """Every row to one column at minimum integer cost, column c taking at most ``capacities[c]``
    rows: a transportation problem solved as a min-cost flow source -> rows -> columns -> sink.

    Arcs are built as numpy arrays (no Python loop), which keeps 2,000 rows x 1,600 columns at
    a few seconds. The flow is one C call no deadline check can cut: under a deadline
    (:mod:`packgap.deadline`) it starts only when its expected time (:data:`FLOW_S_PER_ARC`)
    is left, else :class:`~packgap.errors.TimeLimitReached` is raised.
    """
    costs = np.asarray(costs, dtype=np.int64)
    rows, cols = costs.shape
    capacities = np.asarray(capacities, dtype=np.int64)
    if capacities.shape != (cols,) or (capacities < 0).any():
        raise ValueError(f"need one non-negative capacity per column, got shape {capacities.shape}")
    if capacities.sum() < rows:
        return SlotAssignment(Status.INFEASIBLE, np.full(rows, -1), None, 0.0, backend, "")
    source, sink = rows + cols, rows + cols + 1
    tails = np.concatenate([np.full(rows, source), np.repeat(np.arange(rows), cols), rows + np.arange(cols)])
    heads = np.concatenate([np.arange(rows), rows + np.tile(np.arange(cols), rows), np.full(cols, sink)])
    caps = np.concatenate([np.ones(rows * (cols + 1), dtype=np.int64), capacities])
    unit = np.concatenate([np.zeros(rows, dtype=np.int64), costs.ravel(), np.zeros(cols, dtype=np.int64)])
    supplies = np.zeros(rows + cols + 2, dtype=np.int64)
    supplies[source], supplies[sink] = rows, -rows
    arcs = rows * cols
    if backend in _last_rate:
        fits(arcs * max(FLOW_S_PER_ARC, _last_rate[backend]), f"a min-cost flow over {arcs:,} arcs")
    result = min_cost_flow(tails, heads, caps, unit, supplies, backend=backend)
    if backend in _last_rate and arcs >= RATED_ARCS:
        _last_rate[backend] = result.wall_s / arcs
    column = np.full(rows, -1)
    if result.cost is not None:
        used = np.flatnonzero(result.flows[rows : rows + rows * cols] > 0)
        column[used // cols] = used % cols
    return SlotAssignment(result.status, column, result.cost, result.wall_s, result.solver, result.version)
