"""Exact grid optimum by implicit enumeration: a branch and bound over the options of every shared GPU.

It is the reference :mod:`packgap.models.calibration.frontier` is cross-checked against, so it
merges no frontiers: a subtree is left out only when its lower bound cannot beat the best
complete point found, besides two exact reductions proven where they are made
(:func:`undominated`: an option of one GPU beaten on that GPU; identical GPUs of one partner
taken in one order only).

The tree fixes the (J_max share, partner share) option of one shared GPU per level, the GPUs
of one partner job after another, the partners with most GPUs first
(:mod:`packgap.models.calibration.layout`: J_max's term depends only on its speed sum
A = solo + sum_g a_g, a partner's only on its own B_k = sum_{g of k} b_g; the objective
combines the terms by a sum (JCT) or a max). A node has fixed the options of a prefix of the
GPUs: the combined terms of the partners it has finished, A so far, and B so far of the
partner it is in.

Bounds of a node, each <= the objective of every complete point below it (admissible):

* *optimistic speeds*: every term is nonincreasing in its speed sum, and no completion gives
  J_max more than the largest a_g of every free GPU, nor a partner more than the largest b_g
  of its free GPUs; the objective at those speed sums is a lower bound (every objective).
* *tangents* (JCT only): a term T(x) = steps (c + B / x) is convex in x > 0, so
  T(x) >= T(r) + T'(r) (x - r) for every reference r > 0 (and T(0) = inf). With
  mu = -T_max'(r) >= 0, J_max's term is at least T_max(r) - mu (A - r), linear in A, which
  splits the sum into one part per partner: the least, over the partner's free options, of
  T_k(B_k) - mu (its free a_g). That part is at least the larger of (i) T_k at B_k with the
  largest free b_g, minus mu times the largest free a_g, and (ii) the tangent of T_k at a
  reference r_k, T_k(r_k) + T_k'(r_k) (B_k - r_k) - mu (free a_g), whose least over options
  is separable GPU by GPU; a partner not yet started with at most :data:`EXACT_PART` option
  combinations gets its least exactly. References: the incumbent's speed sums times
  :data:`SCALES`; every reference gives a valid bound and the largest is kept.

A subtree is cut when its bound is at least the incumbent, so the least objective over the
whole grid is found (ties: the first point found). The incumbent starts from a coordinate
descent over the grid (:func:`descend`) and improves at every leaf. Measured on the 60 sets of
``generate calibration --jobs 6..8 --seed 0..19`` (121^8 to 121^16 grid points): at most
2,760 nodes and 0.66 s each, every optimum equal to exact-frontier's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from packgap.errors import PackgapError
from packgap.models.calibration.frontier import Optimum
from packgap.models.calibration.layout import FloatArray, Layout

IntArray = NDArray[np.int64]
#: Nodes expanded at once (memory: a few arrays of this many nodes times the options of a GPU).
CHUNK = 1 << 12
#: A partner whose free option combinations number at most this gets its tangent part exactly.
EXACT_PART = 1 << 15
#: Reference points of the tangents, as multiples of the incumbent's J_max speed sum.
SCALES = (0.8, 0.9, 1.0, 1.1, 1.25)


@dataclass(frozen=True)
class Tree:
    """Per level (depth d): the shared GPU ``order[d]``, its kept options (``index``: their grid
    option numbers, ``a``/``b``: speeds), its partner, whether it is the partner's last GPU and
    whether it repeats the previous level's GPU exactly (``same``)."""

    order: list[int]
    index: list[IntArray]
    a: list[FloatArray]
    b: list[FloatArray]
    job: list[int]
    last: list[bool]
    same: list[bool]

    @property
    def depth(self) -> int:
        return len(self.order)


def undominated(a: FloatArray, b: FloatArray) -> IntArray:
    """Options of one GPU that no other option beats: another with a' >= a and b' >= b, strictly
    in one or, on a tie in both, listed first. Swapping a beaten option for its better never
    raises the objective (every term is nonincreasing in its speed sum), so some optimum uses
    only kept options."""
    ge = (a[None, :] >= a[:, None]) & (b[None, :] >= b[:, None])
    gt = (a[None, :] > a[:, None]) | (b[None, :] > b[:, None])
    earlier = np.tril(np.ones((len(a), len(a)), dtype=bool), -1)
    beaten = (ge & (gt | earlier)).any(axis=1)
    return np.flatnonzero(~beaten)


def _tree(lay: Layout, gpu_options: list[tuple[FloatArray, FloatArray]]) -> Tree:
    jobs = sorted(lay.partners, key=lambda k: -len(lay.gpus_of(k)))
    order = [g for job in jobs for g in lay.gpus_of(job)]
    index = [undominated(*gpu_options[g]) for g in order]
    a = [gpu_options[g][0][i] for g, i in zip(order, index, strict=True)]
    b = [gpu_options[g][1][i] for g, i in zip(order, index, strict=True)]
    job = [lay.shared[g].job for g in order]
    last = [d + 1 == len(order) or job[d + 1] != job[d] for d in range(len(order))]
    same = [
        d > 0 and job[d] == job[d - 1] and np.array_equal(a[d], a[d - 1]) and np.array_equal(b[d], b[d - 1])
        for d in range(len(order))
    ]
    return Tree(order, index, a, b, job, last, same)


def objective(lay: Layout, tree: Tree, choice: IntArray) -> float:
    """The objective of one complete point (``choice[d]``: the option of GPU ``tree.order[d]``)."""
    big = lay.solo_speed() + sum(float(tree.a[d][c]) for d, c in enumerate(choice))
    value = lay.term(lay.big)(np.array([big]))
    speed: dict[int, float] = dict.fromkeys(lay.partners, 0.0)
    for d, c in enumerate(choice):
        speed[tree.job[d]] += float(tree.b[d][c])
    for job in lay.partners:
        value = lay.combine(value, lay.term(job)(np.array([speed[job]])))
    return float(lay.finish(value)[0])


def descend(lay: Layout, tree: Tree) -> IntArray:
    """A local optimum of the grid: change one GPU's option at a time while the objective falls.

    It starts where every GPU gives both workers some speed (the largest product a b), so that
    no term starts infinite: one change could not make two infinite terms finite."""
    choice = np.array([int(np.argmax(a * b)) for a, b in zip(tree.a, tree.b, strict=True)], dtype=np.int64)
    best = objective(lay, tree, choice)
    improved = True
    while improved:
        improved = False
        for d in range(tree.depth):
            for option in range(len(tree.a[d])):
                trial = choice.copy()
                trial[d] = option
                value = objective(lay, tree, trial)
                if value < best:
                    best, choice, improved = value, trial, True
    return choice


class Bounds:
    """Lower bounds of the nodes at every depth (module docstring), vectorised over nodes."""

    def __init__(self, lay: Layout, tree: Tree, incumbent: IntArray) -> None:
        self.lay, self.tree = lay, tree
        n = tree.depth
        amax = np.array([a.max() for a in tree.a])
        bmax = np.array([b.max() for b in tree.b])
        #: J_max's largest speed from depth d on; a partner's largest speed and the largest J_max
        #: speed over its GPUs from depth d to its last GPU.
        self.a_rest = np.concatenate([np.cumsum(amax[::-1])[::-1], [0.0]])
        self.b_job = np.zeros(n + 1)
        self.a_job = np.zeros(n + 1)
        for d in reversed(range(n)):
            carry = not tree.last[d]
            self.b_job[d] = bmax[d] + (self.b_job[d + 1] if carry else 0.0)
            self.a_job[d] = amax[d] + (self.a_job[d + 1] if carry else 0.0)
        self.first = [d == 0 or tree.last[d - 1] for d in range(n)]
        #: Optimistic combined terms of the partners that start after depth d.
        self.later = np.zeros(n + 1)
        for d in reversed(range(n)):
            after = [s for s in range(d + 1, n) if self.first[s]]
            value = np.array(0.0 if lay.instance.objective == "jct" else -math.inf)
            for s in after:
                value = lay.combine(value, lay.term(tree.job[s])(np.array(self.b_job[s])))
            self.later[d] = float(value)
        speed = dict.fromkeys(lay.partners, 0.0)
        for d, c in enumerate(incumbent):
            speed[tree.job[d]] += float(tree.b[d][c])
        self.refs = {job: np.array([max(v, 1e-12) * x for x in SCALES]) for job, v in speed.items()}
        big = lay.solo_speed() + sum(float(tree.a[d][c]) for d, c in enumerate(incumbent))
        self.tangents = [self._tangent(big * x) for x in SCALES] if lay.instance.objective == "jct" else []

    def _tangent(self, r: float) -> tuple[float, float, FloatArray, FloatArray]:
        """For J_max's reference ``r``: T_max(r) + mu r, mu, per depth and partner reference the
        separable least over the current partner's free GPUs, and per depth the sum of the
        parts of the later partners."""
        lay, tree = self.lay, self.tree
        n = tree.depth
        t_big, mu = _value_slope(lay, lay.big, np.array([r]))
        part = np.zeros((n + 1, len(SCALES)))
        later = np.zeros(n + 1)
        whole = 0.0
        for d in reversed(range(n)):
            _, nu = _value_slope(lay, tree.job[d], self.refs[tree.job[d]])
            least = np.min(-nu[:, None] * tree.b[d][None, :] - mu[0] * tree.a[d][None, :], axis=1)
            part[d] = least + (0.0 if tree.last[d] else part[d + 1])
            later[d] = whole
            if self.first[d]:
                whole += self._whole(d, mu[0], part[d])
        return float(t_big[0] + mu[0] * r), float(mu[0]), part, later

    def _whole(self, first: int, mu: float, separable: FloatArray) -> float:
        """A lower bound (exact for few combinations) of min T_k(B_k) - mu sum a over a whole partner."""
        tree, lay = self.tree, self.lay
        gpus = range(first, first + next(i for i in range(tree.depth - first) if tree.last[first + i]) + 1)
        term = lay.term(tree.job[first])
        if math.prod(len(tree.a[d]) for d in gpus) <= EXACT_PART:
            a, b = np.zeros(1), np.zeros(1)
            for d in gpus:
                a = (a[:, None] + tree.a[d][None, :]).ravel()
                b = (b[:, None] + tree.b[d][None, :]).ravel()
            return float(np.min(term(b) - mu * a))
        return float(np.max(self._own(first, mu, np.zeros(1), separable[None, :])))

    def _own(self, d: int, mu: float, own: FloatArray, part: FloatArray) -> FloatArray:
        """Lower bounds of min T_k(own + free b) - mu (free a) over the free GPUs of the current partner."""
        job = self.tree.job[d]
        optimistic = self.lay.term(job)(own + self.b_job[d]) - mu * self.a_job[d]
        r = self.refs[job]
        value, nu = _value_slope(self.lay, job, r)
        tangent = np.max(value[None, :] - nu[None, :] * (own[:, None] - r[None, :]) + part, axis=1)
        return np.maximum(optimistic, tangent)

    def at(self, d: int, done: FloatArray, big: FloatArray, own: FloatArray) -> FloatArray:
        """Bounds of nodes at depth ``d`` (next GPU: ``tree.order[d]``): ``done`` the combined terms of
        the finished partners, ``big`` J_max's fixed speed (solo included), ``own`` the current
        partner's fixed speed."""
        lay = self.lay
        value = lay.combine(done, lay.term(lay.big)(big + self.a_rest[d]))
        if d == self.tree.depth:
            return np.asarray(lay.finish(value))
        value = lay.combine(value, lay.term(self.tree.job[d])(own + self.b_job[d]))
        bound = lay.finish(lay.combine(value, np.full(len(done), self.later[d])))
        for offset, mu, part, later in self.tangents:
            linear = offset - mu * big + done + self._own(d, mu, own, part[d][None, :]) + later[d]
            bound = np.maximum(bound, lay.finish(linear))
        return np.asarray(bound)


def _value_slope(lay: Layout, job: int, r: FloatArray) -> tuple[FloatArray, FloatArray]:
    """T_job(r) and -T_job'(r) (>= 0) of a JCT term at speed sums r > 0."""
    j = lay.instance.jobs[job]
    cost = lay.instance.throughput.profile(j.model).fixed_cost
    return j.remaining_steps * (cost + j.batch / r), j.remaining_steps * j.batch / r**2


def search(
    lay: Layout,
    gpu_options: list[tuple[FloatArray, FloatArray]],
    max_points: int = 20_000_000,
    check: Callable[[], None] = lambda: None,
) -> Optimum:
    """The least objective over every grid point, its option per shared GPU and the nodes scored.

    Refuses (:class:`PackgapError`, with the grid's size) once more than ``max_points`` nodes
    have been scored; ``check`` is called between batches (it raises when a time limit is spent).
    """
    tree = _tree(lay, gpu_options)
    incumbent = descend(lay, tree)
    best = objective(lay, tree, incumbent)
    if tree.depth == 0:
        return Optimum(best, incumbent, 1)
    bounds = Bounds(lay, tree, incumbent)
    slack = 1e-12 * abs(best) if math.isfinite(best) else 0.0
    zero = np.zeros(1)
    stack = [
        (
            0,
            zero,
            zero + lay.solo_speed(),
            zero,
            np.zeros((1, 0), dtype=np.int64),
            bounds.at(0, zero, zero + lay.solo_speed(), zero),
        )
    ]
    scored = 1
    while stack:
        d, done, big, own, choice, bound = stack.pop()
        keep = bound < best + slack
        if len(bound) > CHUNK:
            rest = slice(CHUNK, None)
            stack.append((d, done[rest], big[rest], own[rest], choice[rest], bound[rest]))
            keep[CHUNK:] = False
        if not keep.any():
            continue
        done, big, own, choice = done[keep], big[keep], own[keep], choice[keep]
        k = len(tree.a[d])
        node = np.repeat(np.arange(len(done)), k)
        option = np.tile(np.arange(k), len(done))
        if tree.same[d]:
            # Identical GPUs of one partner only add up: options in nondecreasing order suffice.
            allowed = option >= choice[node, d - 1]
            node, option = node[allowed], option[allowed]
        big = big[node] + tree.a[d][option]
        own = own[node] + tree.b[d][option]
        done = done[node]
        if tree.last[d]:
            done = lay.combine(done, lay.term(tree.job[d])(own))
            own = np.zeros(len(own))
        choice = np.hstack([choice[node], option[:, None]])
        bound = bounds.at(d + 1, done, big, own)
        scored += len(bound)
        if d + 1 == tree.depth:
            i = int(np.argmin(bound))
            if bound[i] < best:
                best, incumbent = float(bound[i]), choice[i]
        else:
            order = np.argsort(bound, kind="stable")
            stack.append((d + 1, done[order], big[order], own[order], choice[order], bound[order]))
        if scored > max_points:
            total = math.prod(len(a) for a, _ in gpu_options)
            raise PackgapError(
                f"branch and bound scored more than {max_points:,} nodes of a grid of {total:,} points; "
                "use exact-frontier"
            )
        check()
    out = np.zeros(tree.depth, dtype=np.int64)
    out[tree.order] = [tree.index[d][c] for d, c in enumerate(incumbent)]
    return Optimum(best, out, scored)
