"""CP-SAT model of the joint packing problem (built here, solved in ``solvers``).

Same decisions and objective as :mod:`packgap.models.packing.milp`, without its restriction to one
GPU demand: every candidate group (:mod:`packgap.models.packing.data`) has, per GPU type where it
may run, an optional fixed-size interval; each job lies in exactly one present interval;
type k is one cumulative resource of capacity M_k with the group's demand (eq. 5; a
cumulative schedule splits onto single GPUs, :func:`packgap.models.packing.data.place`); a present
interval starts no earlier than its latest member arrival (eq. 6) and an absent one at 0,
so ``C_j = sum(start + offset * present)``; the lateness indicator ``L_j`` must be 1 when
``C_j`` passes the deadline (eq. 9).

CP-SAT needs integers: time is counted in ticks of ``resolution`` seconds. Issue 11: data
rounded off the grid make the solver's bound a bound on another problem, so the rounding
direction is explicit (``rounding``):

* ``"relax"`` (default): durations, offsets and arrivals rounded down, late only past
  ``floor((deadline + TOL) / tick)``, objective weights rounded down. Every real schedule,
  its starts rounded down, is a model schedule costing no more (``floor(a + b) >=
  floor(a) + floor(b)`` keeps groups apart), so the solver's bound is a certificate on any
  data. Its answers may overlap by less than a tick: :func:`repair` re-times them with the
  serial schedule (same groups, types and order), which is always feasible.
* ``"feasible"``: durations, offsets and arrivals rounded up, deadlines down: answers are
  feasible as they are, the bound is one only when the data lie on the grid (``exact``).
  Here a known valid bound ``floor`` enters as a cut (the model's optimum is never below
  the real one).

Both ignore the validator's slack of ``TOL`` (1e-6 s) on overlaps and arrivals, a
relaxation of at most a microsecond per group (:mod:`packgap.models.packing.ti_grid` accounts for it).

Ticks: ``tick=0`` (exact-cpsat's ``resolution``) picks the largest of 1, 0.1, ..., 1 us
that puts all data on the grid, if it keeps the horizon within :data:`MAX_TICKS`; otherwise
the power of ten that does (measured on 20 generated jobs: 1 us ticks, domains of 10^10,
found nothing better than the hint in 20 s; 1 ms and 0.1 s ticks found the optimum in 10 s
and 5 s).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from packgap.deadline import check, checked
from packgap.errors import UnknownNameError
from packgap.models.packing.bounds import lower_bound
from packgap.models.packing.data import Candidate, candidates, horizon, place, weights
from packgap.models.packing.serial import serial_schedule
from packgap.packing import PackingInstance, PackingSolution
from packgap.packing.evaluate import TOL
from packgap.solvers.cpsat import new_model, weighted_sum

Rounding = Literal["relax", "feasible"]
ROUNDINGS: tuple[Rounding, ...] = ("relax", "feasible")
RESOLUTIONS = (1.0, 0.1, 0.01, 0.001, 1e-4, 1e-5, 1e-6)
#: Seconds treated as float noise: data this close to a grid point lie on it, and rounding
#: never moves a value by more than this against its direction (far below the evaluator's TOL).
NOISE_S = 1e-9
#: Largest horizon in ticks the automatic resolution accepts.
MAX_TICKS = 10**6
#: Largest integer weight of one late job when both objective terms count.
MAX_DENOMINATOR = 10**13


@dataclass(frozen=True)
class PackingCpModel:
    model: Any
    cands: list[Candidate]
    present: dict[tuple[int, int], Any]  # (candidate, type index) -> BoolVar
    start: dict[tuple[int, int], Any]
    resolution: float
    rounding: Rounding
    objective_scale: float  # real objective >= model objective * scale + constant (relax)
    constant: float
    exact: bool  # data on the grid: the model is the real problem


def _on_grid(values: list[float], tick: float) -> bool:
    return all(abs(v - round(v / tick) * tick) <= NOISE_S for v in values)


def _values(instance: PackingInstance, cands: list[Candidate]) -> list[float]:
    values = [j.arrival for j in instance.jobs] + [j.deadline for j in instance.jobs]
    for c in cands:
        values += [d for d in c.durations if d is not None]
        values += [o for line in c.offsets if line is not None for o in line]
    return values


def resolution(instance: PackingInstance, cands: list[Candidate], span: float) -> tuple[float, bool]:
    """The automatic tick (module docstring) and whether the data lie on it."""
    coarsest = 10.0 ** math.ceil(math.log10(max(span, 1e-9) / MAX_TICKS))
    values = _values(instance, cands)
    for tick in RESOLUTIONS:
        if tick >= coarsest * (1 - 1e-12) and _on_grid(values, tick):
            return tick, True
    tick = max(coarsest, RESOLUTIONS[-1])
    return tick, _on_grid(values, tick)


def _weights(a: float, b: float, rounding: Rounding) -> tuple[int, int, float, bool]:
    """Integers (A, B), scale with A * scale ~ a, B * scale ~ b, and whether that is exact
    (a ratio with denominator <= :data:`MAX_DENOMINATOR`); otherwise A is rounded down when
    relaxing and up when keeping answers feasible."""
    if b == 0:
        return (1 if a > 0 else 0), 0, a if a > 0 else 1.0, True
    if a == 0:
        return 0, 1, b, True
    ratio = Fraction(a / b).limit_denominator(MAX_DENOMINATOR)
    if abs(float(ratio) - a / b) <= 1e-12 * (a / b):
        return ratio.numerator, ratio.denominator, b / ratio.denominator, True
    scale = b / MAX_DENOMINATOR
    big_a = math.floor(a / scale) if rounding == "relax" else math.ceil(a / scale)
    return big_a, MAX_DENOMINATOR, scale, False


def build_cpsat(
    instance: PackingInstance,
    hint: PackingSolution | None = None,
    groups: Sequence[Sequence[str]] | None = None,
    *,
    rounding: Rounding = "relax",
    tick: float = 0.0,
    floor: float | None = None,
    allowed: Collection[tuple[int, int]] | None = None,
) -> PackingCpModel:
    """The joint model, or with ``groups`` the exact planning of that fixed packing (GPU
    type and start of each given group: a decomposition that isolates the planning loss).

    ``tick`` 0 picks the resolution automatically; ``floor`` (a valid lower bound on the
    real objective) becomes a cut on the objective in ``"feasible"`` rounding; ``allowed``
    keeps only those (candidate, type) options (e.g. the ones reduced-cost fixing left: the
    model then speaks only of solutions better than the answer that fixed them)."""
    if rounding not in ROUNDINGS:
        raise UnknownNameError("rounding", rounding, list(ROUNDINGS))
    cands = candidates(instance, groups)
    span = horizon(instance, cands, fixed=groups is not None)
    res, exact = (tick, _on_grid(_values(instance, cands), tick)) if tick > 0 else resolution(instance, cands, span)
    relax = rounding == "relax"

    def ticks(value: float, up: bool) -> int:
        """``value`` in ticks, rounded up or down beyond float noise."""
        return math.ceil((value - NOISE_S) / res) if up else math.floor((value + NOISE_S) / res)

    w = weights(instance)
    big_a, big_b, scale, weights_exact = _weights(w.completion * res, w.late, rounding)
    h = ticks(span, up=True) + 1
    model = new_model()
    present: dict[tuple[int, int], Any] = {}
    start: dict[tuple[int, int], Any] = {}
    demands: dict[int, list[tuple[Any, int]]] = {}
    # C_j's terms, start + offset * present, kept as variables and coefficients (see weighted_sum).
    terms: dict[int, tuple[list[Any], list[int]]] = {j: ([], []) for j in range(len(instance.jobs))}
    reach = 0  # the latest offset in ticks: no completion lies past h + reach
    for c, cand in checked(enumerate(cands)):
        release = ticks(cand.release, up=not relax)
        for k, duration in enumerate(cand.durations):
            if duration is None or (allowed is not None and (c, k) not in allowed):
                continue
            x = model.new_bool_var(f"x{c}_{k}")
            s = model.new_int_var(0, h, f"s{c}_{k}")
            model.add(s >= release).only_enforce_if(x)
            model.add(s == 0).only_enforce_if(~x)
            interval = model.new_optional_fixed_size_interval_var(s, ticks(duration, up=not relax), x, f"i{c}_{k}")
            demands.setdefault(k, []).append((interval, cand.demand))
            line = cand.offsets[k]
            assert line is not None
            for j, offset in zip(cand.jobs, line, strict=True):
                variables, coefficients = terms[j]
                variables += (s, x)
                coefficients += (1, ticks(offset, up=not relax))
                reach = max(reach, coefficients[-1])
            present[c, k], start[c, k] = x, s
    for k, items in demands.items():
        model.add_cumulative([i for i, _ in items], [d for _, d in items], instance.gpu_types[k].count)
    holding: dict[int, list[Any]] = {j: [] for j in range(len(instance.jobs))}
    for (c, _), x in checked(present.items(), every=4096):
        for j in cands[c].jobs:
            holding[j].append(x)
    for xs in checked(holding.values()):
        model.add_exactly_one(xs)
    late = [model.new_bool_var(f"late{j}") for j in range(len(instance.jobs))]
    # One variable per completion time keeps the objective at two terms per job: summed over
    # the options it had 700 k terms at 500 jobs, 4 s in one uncuttable call (issue 31).
    done = []
    for j, job in checked(enumerate(instance.jobs), every=8):
        due = ticks(job.deadline + TOL, up=False) if relax else ticks(job.deadline, up=False)
        done.append(model.new_int_var(0, h + reach, f"C{j}"))
        model.add(done[j] == weighted_sum(*terms[j]))
        model.add(done[j] <= due).only_enforce_if(~late[j])
    total = sum(done)
    objective = big_a * total + big_b * sum(late)
    # packgap.models.packing.bounds as cuts: in ticks they lose at most one per rounded term.
    closed = lower_bound(instance)
    model.add(total >= math.floor(closed.sum_completion / res) - (2 * len(instance.jobs) if relax else 0))
    if not relax:
        model.add(sum(late) >= closed.late)
        if floor is not None:
            model.add(objective >= math.floor((floor - w.constant) / scale * (1 - 1e-9) - 1))
    model.minimize(objective)
    check()
    if hint is not None:
        _add_hint(instance, model, cands, present, start, hint, res, relax)
    return PackingCpModel(model, cands, present, start, res, rounding, scale, w.constant, exact and weights_exact)


def _add_hint(
    instance: PackingInstance,
    model: Any,
    cands: list[Candidate],
    present: dict[tuple[int, int], Any],
    start: dict[tuple[int, int], Any],
    hint: PackingSolution,
    res: float,
    relax: bool,
) -> None:
    """Warm start from a validated solution (only options the model has are hinted).

    Relaxed rounding keeps a real schedule feasible with its starts rounded down; with
    feasible rounding the hint is re-timed on the rounded data by the serial schedule."""
    index = instance.job_index()
    by_jobs = {frozenset(c.jobs): i for i, c in enumerate(cands)}
    chosen: dict[tuple[int, int], float] = {}
    for g in hint.groups:
        c = by_jobs.get(frozenset(index[j] for j in g.jobs))
        k = instance.type_names.index(g.gpu_type)
        if c is not None and (c, k) in present:
            chosen[c, k] = g.start
    if not relax:
        rounded = [_rounded_up(cand, res) for cand in cands]
        order = [(c, [k]) for (c, k), _ in sorted(chosen.items(), key=lambda item: item[1])]
        chosen = {(c, k): s for c, k, s in serial_schedule(instance, rounded, order, weights(instance))}
    for key, x in checked(present.items(), every=4096):
        model.add_hint(x, key in chosen)
        model.add_hint(start[key], math.floor((chosen[key] + NOISE_S) / res) if key in chosen else 0)


def _rounded_up(cand: Candidate, res: float) -> Candidate:
    def up(v: float) -> float:
        return math.ceil((v - NOISE_S) / res) * res

    return Candidate(
        cand.jobs,
        cand.demand,
        up(cand.release),
        tuple(None if d is None else up(d) for d in cand.durations),
        tuple(None if line is None else tuple(up(o) for o in line) for line in cand.offsets),
    )


def extract(cp: PackingCpModel, solver: Any) -> list[tuple[int, int, float]]:
    """Chosen (candidate, type index, start in seconds)."""
    return [
        (c, k, solver.value(cp.start[c, k]) * cp.resolution)
        for (c, k), x in cp.present.items()
        if solver.boolean_value(x)
    ]


def repair(
    instance: PackingInstance, cp: PackingCpModel, chosen: list[tuple[int, int, float]]
) -> list[tuple[int, int, float]]:
    """A relaxed model's answer re-timed on the real data: same groups and types, taken in
    order of their model start by the serial schedule (feasible by construction)."""
    if cp.rounding == "feasible":
        return chosen
    order = [(c, [k]) for c, k, _ in sorted(chosen, key=lambda t: (t[2], t[0]))]
    return serial_schedule(instance, cp.cands, order, weights(instance))


def answer(instance: PackingInstance, cp: PackingCpModel, solver: Any) -> PackingSolution:
    """The solver's answer as a (feasible) packing solution with concrete GPUs."""
    return place(instance, cp.cands, repair(instance, cp, extract(cp, solver)))


def bound(cp: PackingCpModel, solver_bound: float | None) -> float | None:
    """The solver's bound on the real objective, or None where it is not a certificate."""
    if solver_bound is None or (cp.rounding == "feasible" and not cp.exact):
        return None
    return solver_bound * cp.objective_scale + cp.constant
