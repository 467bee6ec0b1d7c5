"""Maximum-weight matching on general graphs (Edmonds' blossom algorithm).

rustworkx needs integer weights for an exact optimum, so weights are scaled and rounded;
networkx (exact on floats, about 100x slower) is the reference implementation in tests.
DESIGN.md: build the rustworkx graph with the default multigraph constructor and
``add_edges_from`` (``multigraph=False`` checks every insert, 16 s instead of 0.6 s at 2,000
nodes).
"""

from __future__ import annotations

import importlib.metadata
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from packgap.errors import SolverUnavailableError, UnknownNameError

MatchingBackend = Literal["rustworkx", "networkx"]

#: Weights are multiplied by this and rounded before rustworkx sees them.
WEIGHT_SCALE = 10**6


@dataclass(frozen=True)
class Matching:
    """Matched pairs (u < v, sorted) and their total float weight."""

    pairs: tuple[tuple[int, int], ...]
    weight: float
    wall_s: float
    solver: str
    version: str


def max_weight_matching(
    n: int,
    edges: Sequence[tuple[int, int, float]],
    *,
    backend: MatchingBackend = "rustworkx",
    max_cardinality: bool = False,
) -> Matching:
    """Maximum-weight matching of nodes ``0..n-1`` over ``edges`` (u, v, weight)."""
    for u, v, _ in edges:
        if not (0 <= u < n and 0 <= v < n) or u == v:
            raise ValueError(f"edge ({u}, {v}) is not between two distinct nodes of 0..{n - 1}")
    weights = {(min(u, v), max(u, v)): w for u, v, w in edges}
    start = time.perf_counter()
    if backend == "rustworkx":
        raw, solver, version = _rustworkx(n, edges, max_cardinality)
    elif backend == "networkx":
        raw, solver, version = _networkx(n, edges, max_cardinality)
    else:
        raise UnknownNameError("matching backend", str(backend), ["rustworkx", "networkx"])
    pairs = tuple(sorted((min(u, v), max(u, v)) for u, v in raw))
    return Matching(pairs, sum(weights[p] for p in pairs), time.perf_counter() - start, solver, version)


@cache
def _version(distribution: str) -> str:
    """An installed distribution's version, read once (the metadata lookup parses its files:
    measured, half of Muri-S's 800-event run on 400 jobs)."""
    return importlib.metadata.version(distribution)


def _rustworkx(n: int, edges: Sequence[tuple[int, int, float]], max_cardinality: bool):  # type: ignore[no-untyped-def]
    try:
        import rustworkx as rx
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise SolverUnavailableError(f"rustworkx cannot be imported: {exc}") from None
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from([(u, v, round(w * WEIGHT_SCALE)) for u, v, w in edges])
    matched = rx.max_weight_matching(
        graph, max_cardinality=max_cardinality, weight_fn=lambda w: w, verify_optimum=False
    )
    return matched, "rustworkx", _version("rustworkx")


def _networkx(n: int, edges: Sequence[tuple[int, int, float]], max_cardinality: bool):  # type: ignore[no-untyped-def]
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from(edges)
    return nx.max_weight_matching(graph, maxcardinality=max_cardinality), "networkx", nx.__version__
