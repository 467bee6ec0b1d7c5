"""Subgradient ascent on the Lagrangian bound of ``packgap.models.placement.block_bound``.

Prices start at the duals of the transport relaxation (each GPU to one type, every type
paying ``factor x score / N`` per GPU, ``packgap.analysis.placement.exact_blocks.transport``); Polyak
subgradient steps towards the incumbent's objective then raise ``L`` (Polyak 1969; Held, Wolfe
and Crowder 1974), halving the step after ``patience`` steps without progress.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from packgap.analysis.placement.exact_blocks.transport import potentials, transport
from packgap.models.placement.block_bound import DualPoint, RoundDual, evaluate

#: The ascent stops once its step factor has been halved below this (about 13 halvings).
MIN_FACTOR = 1e-4


def transport_prices(rd: RoundDual) -> tuple[np.ndarray, np.ndarray]:
    """Duals of the transport relaxation (:mod:`packgap.analysis.placement.exact_blocks.transport`): a
    type ships ``m N`` GPUs at ``unit x score`` each, ``unit`` = the cheaper of its within-node
    and spread factors over ``N``. A type's price per job is ``N`` times its price per GPU, and
    ``pi[g]`` is the least reduced cost of ``g`` (at most 0, the idle cost, unless every GPU
    must be used)."""
    grid, types = rd.grid, rd.types
    inst = rd.instance
    scores = np.array([np.asarray(inst.pm_scores[c])[grid.free] for c in inst.classes])
    unit = [(t.weight if t.packs_within(inst.gpus_per_node) else t.across_factor()) / t.gpus for t in types]
    cost = np.array([u * scores[c] for u, c in zip(unit, grid.type_class, strict=True)])
    assigned, rows = transport(cost, [t.count * t.gpus for t in types])
    price = potentials(rows, assigned)
    price -= price[-1] if len(rows) > len(types) else 0.0
    pi = np.zeros(inst.num_gpus)
    pi[grid.free] = (rows - price[:, None]).min(axis=0)
    return pi, price[: len(types)] * grid.sizes()


#: Called with the best point so far; returns the objective of the best placement known.
Probe = Callable[[DualPoint], float]


@dataclass(frozen=True)
class DualResult:
    best: DualPoint
    upper: float
    iterations: int
    out_of_time: bool
    factor: float


def maximise(
    rd: RoundDual,
    upper: float,
    seconds: float | None,
    *,
    probe: Probe | None = None,
    probe_every: int = 25,
    gap: float = 0.0,
    iterations: int = 5000,
    patience: int = 20,
    start: tuple[np.ndarray, np.ndarray] | None = None,
    factor: float = 1.0,
) -> DualResult:
    """Subgradient ascent on ``L`` from ``start`` (default: transport prices), Polyak steps
    of ``factor`` times the distance to ``upper`` (a placement's objective). Every
    ``probe_every`` steps in which the best point changed, and at the end, ``probe`` may lower
    ``upper`` (e.g. by a repaired placement). Stops after ``seconds`` or ``iterations``, when the
    step factor has been halved below ``MIN_FACTOR``, or when ``L`` is within ``gap``
    (relative) of ``upper``."""
    began = time.perf_counter()
    pi, mu = start if start is not None else transport_prices(rd)
    point = best = probed = evaluate(rd, pi, mu)
    stale, done = 0, 1

    def more() -> bool:
        tol = max(1e-9, gap) * max(1.0, abs(upper))
        return done < iterations and factor > MIN_FACTOR and best.value < upper - tol and not out_of_time()

    def out_of_time() -> bool:
        return seconds is not None and time.perf_counter() - began >= seconds

    while more():
        norm = float(point.step_pi @ point.step_pi + point.step_mu @ point.step_mu)
        if norm == 0.0:
            break
        step = factor * max(upper - point.value, 1e-9 * max(1.0, abs(upper))) / norm
        pi = point.pi + step * point.step_pi
        point = evaluate(rd, pi if rd.fills else np.minimum(pi, 0.0), point.mu + step * point.step_mu)
        done += 1
        if point.value > best.value:
            best, stale = point, 0
        else:
            stale += 1
            if stale >= patience:
                factor, stale, point = factor / 2, 0, best
        if probe is not None and done % probe_every == 0 and best is not probed:
            upper, probed = min(upper, probe(best)), best
    if probe is not None and best is not probed:
        upper = min(upper, probe(best))
    return DualResult(best, upper, done, out_of_time(), factor)
