"""CP-SAT model of the joint packing problem (built here, solved in ``solvers``).

Same decisions and objective as :mod:`models.packing.milp`, without its restriction to one
GPU demand: every candidate group (:mod:`models.packing.data`) has, per GPU type where it
may run, an optional fixed-size interval; each job lies in exactly one present interval;
type k is one cumulative resource of capacity M_k with the group's demand (eq. 5; a
cumulative schedule splits onto single GPUs, :func:`models.packing.data.place`); a present
interval starts no earlier than its latest member arrival (eq. 6) and an absent one at 0,
so ``C_j = sum(start + offset * present)``; the lateness indicator ``L_j`` must be 1 when
``C_j`` passes the deadline (eq. 9).

CP-SAT needs integers: times are counted in ticks of ``resolution`` seconds, the largest of
1, 0.1, 0.01, 0.001 s and 1 us that puts every duration, offset, arrival and deadline on the
grid (to within 1/1000 of a tick, float noise; generated instances keep microseconds, so
they land on the 1 us grid). When none does, 1 us ticks are used with durations, offsets
and arrivals rounded up and deadlines down, so the answer stays feasible, but ``exact`` is
False: the solver's bound is then no bound on the real problem. The objective weights
``w_c * tick`` and ``w_l`` are made integers by one common scale (exact when their ratio
has a denominator <= 10^13).
The closed-form bounds of :mod:`models.packing.bounds` enter as cuts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from models.packing.bounds import lower_bound
from models.packing.data import Candidate, candidates, horizon, weights
from packgap.packing import PackingInstance, PackingSolution
from solvers.cpsat import new_model

RESOLUTIONS = (1.0, 0.1, 0.01, 0.001, 1e-6)
#: Fraction of a tick treated as float noise.
GRID_TOL = 1e-3


@dataclass(frozen=True)
class PackingCpModel:
    model: Any
    cands: list[Candidate]
    present: dict[tuple[int, int], Any]  # (candidate, type index) -> BoolVar
    start: dict[tuple[int, int], Any]
    resolution: float
    objective_scale: float  # real objective = model objective * scale + constant
    constant: float
    exact: bool


def _on_grid(values: list[float], resolution: float) -> bool:
    return all(abs(v / resolution - round(v / resolution)) < GRID_TOL for v in values)


def resolution(instance: PackingInstance, cands: list[Candidate]) -> tuple[float, bool]:
    values = [j.arrival for j in instance.jobs] + [j.deadline for j in instance.jobs]
    for c in cands:
        values += [d for d in c.durations if d is not None]
        values += [o for line in c.offsets if line is not None for o in line]
    for res in RESOLUTIONS:
        if _on_grid(values, res):
            return res, True
    return RESOLUTIONS[-1], False


def _integer_weights(a: float, b: float) -> tuple[int, int, float, bool]:
    """Integers (A, B) and scale with A * scale = a, B * scale = b (exact flag)."""
    if b == 0:
        return (1 if a > 0 else 0), 0, a if a > 0 else 1.0, True
    if a == 0:
        return 0, 1, b, True
    ratio = Fraction(a / b).limit_denominator(10**13)
    exact = abs(float(ratio) - a / b) <= 1e-12 * (a / b)
    return ratio.numerator, ratio.denominator, b / ratio.denominator, exact


def build_cpsat(
    instance: PackingInstance,
    hint: PackingSolution | None = None,
    groups: Sequence[Sequence[str]] | None = None,
) -> PackingCpModel:
    """The joint model, or with ``groups`` the exact planning of that fixed packing (GPU
    type and start of each given group: a decomposition that isolates the planning loss)."""
    cands = candidates(instance, groups)
    res, on_grid = resolution(instance, cands)
    w = weights(instance)
    big_a, big_b, scale, weights_exact = _integer_weights(w.completion * res, w.late)
    h = math.ceil(horizon(instance, cands, fixed=groups is not None) / res + 1e-9)
    model = new_model()
    present: dict[tuple[int, int], Any] = {}
    start: dict[tuple[int, int], Any] = {}
    demands: dict[int, list[tuple[Any, int]]] = {}
    completion: dict[int, list[Any]] = {j: [] for j in range(len(instance.jobs))}
    for c, cand in enumerate(cands):
        release = math.ceil(cand.release / res - GRID_TOL)
        for k, duration in enumerate(cand.durations):
            if duration is None:
                continue
            x = model.new_bool_var(f"x{c}_{k}")
            s = model.new_int_var(0, h, f"s{c}_{k}")
            model.add(s >= release).only_enforce_if(x)
            model.add(s == 0).only_enforce_if(~x)
            size = math.ceil(duration / res - GRID_TOL)
            interval = model.new_optional_fixed_size_interval_var(s, size, x, f"i{c}_{k}")
            demands.setdefault(k, []).append((interval, cand.demand))
            line = cand.offsets[k]
            assert line is not None
            for j, offset in zip(cand.jobs, line, strict=True):
                completion[j].append(s + math.ceil(offset / res - GRID_TOL) * x)
            present[c, k], start[c, k] = x, s
    for k, items in demands.items():
        model.add_cumulative([i for i, _ in items], [d for _, d in items], instance.gpu_types[k].count)
    for j in range(len(instance.jobs)):
        model.add_exactly_one(x for (c, _), x in present.items() if j in cands[c].jobs)
    late = [model.new_bool_var(f"late{j}") for j in range(len(instance.jobs))]
    for j, job in enumerate(instance.jobs):
        model.add(sum(completion[j]) <= math.floor(job.deadline / res + GRID_TOL)).only_enforce_if(~late[j])
    # models.packing.bounds as cuts; rounded completions only grow, so they stay valid.
    floor = lower_bound(instance)
    total = sum(sum(terms) for terms in completion.values())
    model.add(total >= math.floor(floor.sum_completion / res - GRID_TOL))
    model.add(sum(late) >= floor.late)
    model.minimize(big_a * total + big_b * sum(late))
    if hint is not None:
        _add_hint(instance, model, cands, present, start, hint, res)
    return PackingCpModel(model, cands, present, start, res, scale, w.constant, on_grid and weights_exact)


def _add_hint(
    instance: PackingInstance,
    model: Any,
    cands: list[Candidate],
    present: dict[tuple[int, int], Any],
    start: dict[tuple[int, int], Any],
    hint: PackingSolution,
    res: float,
) -> None:
    """Warm start from a validated solution (only options the model has are hinted)."""
    index = instance.job_index()
    by_jobs = {frozenset(c.jobs): i for i, c in enumerate(cands)}
    chosen = {}
    for g in hint.groups:
        c = by_jobs.get(frozenset(index[j] for j in g.jobs))
        k = instance.type_names.index(g.gpu_type)
        if c is not None and (c, k) in present:
            chosen[c, k] = math.ceil(g.start / res - GRID_TOL)
    for key, x in present.items():
        model.add_hint(x, key in chosen)
        model.add_hint(start[key], chosen.get(key, 0))


def extract(cp: PackingCpModel, solver: Any) -> list[tuple[int, int, float]]:
    """Chosen (candidate, type index, start in seconds)."""
    return [
        (c, k, solver.value(cp.start[c, k]) * cp.resolution)
        for (c, k), x in cp.present.items()
        if solver.boolean_value(x)
    ]
