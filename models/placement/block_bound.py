"""A certified lower bound for one PAL round: the Lagrangian dual of the block-path model.

Dualise the GPU rows (price ``pi[g]``) and the job-count rows (price ``mu[t]`` per job) of
``models.placement.block_paths``. What is left splits by type: each type's cheapest walk
(``models.placement.walks``) and each within-node subset on its own (taken when its reduced
cost is negative). For *any* prices (``pi <= 0`` when some GPU may stay idle)

    L(pi, mu) = sum_g pi[g] + sum_t mu[t] m_t + sum_t walk_t + sum_S min(0, rc_S)

is a lower bound on every placement's objective (weak duality), and its maximum is the block
model's LP bound, which the walks make far stronger than a per-GPU LP: a walk pays a block's
worst score, an LP over GPUs only its mean. No rounding enters: the bound is the exact value of
``L`` at the prices used, less a margin for floating-point error.

Prices start at the duals of the transport relaxation (each GPU to one type, every type
paying ``factor x score / N`` per GPU, ``models.placement.transport``); Polyak
subgradient steps towards the incumbent's objective then raise ``L`` (Polyak 1969; Held, Wolfe
and Crowder 1974), halving the step after ``patience`` steps without progress.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models.placement.job_types import JobType, job_types, within_subsets
from models.placement.transport import potentials, transport
from models.placement.walks import WalkGrid, Walks, cheapest_walks, walk_grid
from packgap.placement import PlacementInstance

#: Relative margin subtracted from every computed ``L`` (float64 sums of up to 10^6 terms).
SAFETY = 1e-9
#: The ascent stops once its step factor has been halved below this (about 13 halvings).
MIN_FACTOR = 1e-4


@dataclass(frozen=True)
class RoundDual:
    """The Lagrangian's data: walk grid, job counts and the within-node subsets in CSR form
    (subset ``i`` holds ``gpus[ptr[i]:ptr[i+1]]``, belongs to type ``owner[i]``)."""

    instance: PlacementInstance
    grid: WalkGrid
    counts: np.ndarray
    fills: bool
    owner: np.ndarray
    cost: np.ndarray
    ptr: np.ndarray
    gpus: np.ndarray

    @property
    def types(self) -> tuple[JobType, ...]:
        return self.grid.types


def round_dual(instance: PlacementInstance) -> RoundDual:
    types = job_types(instance)
    owner: list[int] = []
    cost: list[float] = []
    members: list[int] = []
    for i, t in enumerate(types):
        scores = instance.pm_scores[t.job_class]
        for s in within_subsets(instance, t):
            owner.append(i)
            cost.append(t.weight * max(scores[g] for g in s))
            members.extend(s)
    sizes = [types[i].gpus for i in owner]
    return RoundDual(
        instance,
        walk_grid(instance, types),
        np.array([t.count for t in types], dtype=float),
        sum(j.gpus for j in instance.jobs) == len(instance.free_gpus()),
        np.array(owner, dtype=np.int64),
        np.array(cost),
        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        np.array(members, dtype=np.int64),
    )


@dataclass(frozen=True)
class DualPoint:
    """``L`` at one price vector (``value``, margin taken off), the subproblems' answers and
    the subgradient (row right-hand side minus row activity)."""

    value: float
    pi: np.ndarray
    mu: np.ndarray
    walks: Walks
    subset_rc: np.ndarray
    step_pi: np.ndarray
    step_mu: np.ndarray


def subset_reduced_costs(rd: RoundDual, pi: np.ndarray, mu: np.ndarray) -> np.ndarray:
    if not len(rd.owner):
        return np.zeros(0)
    return rd.cost - np.add.reduceat(pi[rd.gpus], rd.ptr[:-1]) - mu[rd.owner]


def evaluate(rd: RoundDual, pi: np.ndarray, mu: np.ndarray) -> DualPoint:
    """``L(pi, mu)``; ``pi`` is indexed by GPU id (entries of GPUs that are not free are unused)."""
    grid = rd.grid
    walks = cheapest_walks(grid, pi, mu)
    rc = subset_reduced_costs(rd, pi, mu)
    free_pi = pi[grid.free]
    terms = (free_pi.sum(), mu @ rd.counts, walks.value.sum(), np.minimum(rc, 0.0).sum())
    scale = np.abs(free_pi).sum() + np.abs(mu) @ rd.counts + np.abs(walks.value).sum() + np.abs(rc).sum() + 1.0
    vs, ts = np.nonzero(walks.taken)
    usage = np.bincount(grid.order[grid.type_class[ts], vs], minlength=len(pi)).astype(float)
    chosen = rc < 0
    if chosen.any():
        sizes = np.diff(rd.ptr)
        usage += np.bincount(rd.gpus[np.repeat(chosen, sizes)], minlength=len(pi))
    blocks = walks.taken.sum(axis=0) / grid.sizes()
    jobs = blocks + np.bincount(rd.owner[chosen], minlength=len(rd.types))
    step_pi = np.zeros(len(pi))
    step_pi[grid.free] = 1.0 - usage[grid.free]
    return DualPoint(float(sum(terms)) - SAFETY * float(scale), pi, mu, walks, rc, step_pi, rd.counts - jobs)


def transport_prices(rd: RoundDual) -> tuple[np.ndarray, np.ndarray]:
    """Duals of the transport relaxation (``models.placement.transport``): a type ships
    ``m N`` GPUs at ``unit x score`` each, ``unit`` = the cheaper of its within-node and
    spread factors over ``N``. A type's price per job is ``N`` times its price per GPU, and
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
