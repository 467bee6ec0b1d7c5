"""Joint packing MILP (Pyomo; solved in ``solvers``): pairing, GPU type, start and order.

With one GPU demand ``d`` in the instance, type k's ``M_k`` GPUs are exactly ``M_k // d``
machines of width d (a cumulative schedule of width-d intervals splits onto them, as
:func:`packgap.models.packing.data.place` shows), so the model is a disjunctive machine model:

* ``x[c, i]``: candidate group c (:mod:`packgap.models.packing.data`) runs on machine i;
  every job in exactly one chosen group (eq. 3 through the candidates, eq. 4 through one
  machine);
* ``s[c]``: start, 0 unless chosen, at least the latest member arrival (eq. 6);
* ``y[c, e]``: c before e when both sit on one machine; big-M disjunctions keep the
  machine's groups apart (eq. 5);
* ``C[j]`` = start of j's group + j's exact completion offset on the chosen type;
  ``L[j]`` = 1 allows ``C[j]`` past the deadline (eq. 9).

Objective: the evaluator's ``w_c * sum C + w_l * sum L + constant``
(:func:`packgap.models.packing.data.weights`), divided by :func:`objective_unit` so that it is
O(1): eq. 10's ``alpha / n`` (1/3600 per job) times millisecond completion times gave
differences of 1e-7, inside HiGHS's tolerances, and a pair 67 % above the optimum came back
"optimal" (issue 17, found by ``tests/exactness``). A unit of one second instead made HiGHS
trade its big-M tolerances for microseconds of earlier starts. Machines of a type are symmetric; machine i + 1 of a
type holds no more groups than machine i. The closed-form bounds of
:mod:`packgap.models.packing.bounds` enter as cuts on ``sum C`` and ``sum L``.

A tiny cross-check, no longer a gap reference (issue 11): the disjunctions grow as
(candidate groups)^2 x machines (about 2.6 M rows at 40 jobs, 190 s to build) and its LP
relaxation sees no lateness. :func:`disjunctions` counts them before anything is built, so
a caller can refuse an instance its time limit cannot even build; ``exact-ti``
(:mod:`packgap.analysis.packing.ti`) is the strong model.
"""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo

from packgap.deadline import check
from packgap.errors import PackgapError
from packgap.models.packing.bounds import lower_bound
from packgap.models.packing.data import Candidate, candidates, horizon, weights
from packgap.models.rows import add_rows
from packgap.packing import PackingInstance


def machines(instance: PackingInstance) -> list[tuple[int, int]]:
    """(type index, machine index) for the instance's single GPU demand."""
    demands = {j.gpus for j in instance.jobs}
    if len(demands) != 1:
        raise PackgapError(f"exact-milp needs one GPU demand per instance, got {sorted(demands)} (use exact-cpsat)")
    d = demands.pop()
    return [(k, m) for k, t in enumerate(instance.gpu_types) for m in range(t.count // d)]


#: Measured build cost per disjunction (Pyomo rules), with room: 45-70 us at 8-12 jobs.
BUILD_S_PER_DISJUNCTION = 1e-4


def disjunctions(instance: PackingInstance, cands: list[Candidate]) -> int:
    """How many (group, group, machine) disjunctions :func:`build_milp` would write.

    Two distinct candidates share at most one job, so per type the disjoint pairs are all
    pairs less ``sum_j C(m_j, 2)`` (``m_j`` candidates holding job j there)."""
    ms = machines(instance)
    total = 0
    for k in range(len(instance.gpu_types)):
        allowed = [c for c in cands if c.durations[k] is not None]
        holding = np.bincount([j for c in allowed for j in c.jobs], minlength=len(instance.jobs))
        pairs = len(allowed) * (len(allowed) - 1) // 2 - int((holding * (holding - 1) // 2).sum())
        total += pairs * sum(1 for kk, _ in ms if kk == k)
    return total


def options(cands: list[Candidate], ms: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(candidate, machine) pairs where the candidate may run (its type is allowed)."""
    return [(c, i) for c, cand in enumerate(cands) for i, (k, _) in enumerate(ms) if cand.durations[k] is not None]


def objective_unit(instance: PackingInstance) -> float:
    """What one unit of the model's objective is worth in the evaluator's objective: every job
    finishing one horizon later, so completion terms are O(1) whatever the time scale."""
    w = weights(instance)
    h = horizon(instance, candidates(instance))
    return w.completion * h if w.completion > 0 else w.late if w.late > 0 else 1.0


def build_milp(instance: PackingInstance) -> tuple[pyo.ConcreteModel, list[Candidate]]:
    cands = candidates(instance)
    ms = machines(instance)
    w = weights(instance)
    h = horizon(instance, cands)
    big_m = h + max(d for c in cands for d in c.durations if d is not None)
    model = pyo.ConcreteModel(name=f"packing-milp:{instance.name}")
    model.C_SET = pyo.RangeSet(0, len(cands) - 1)
    model.M_SET = pyo.RangeSet(0, len(ms) - 1)
    model.J_SET = pyo.RangeSet(0, len(instance.jobs) - 1)
    model.A_SET = pyo.Set(initialize=options(cands, ms), dimen=2)
    model.x = pyo.Var(model.A_SET, domain=pyo.Binary)
    model.s = pyo.Var(model.C_SET, bounds=(0, h))
    model.C = pyo.Var(model.J_SET, bounds=(0, big_m))
    model.L = pyo.Var(model.J_SET, domain=pyo.Binary)
    add_assignment(model, instance, cands, h)
    add_completion(model, instance, cands, ms, big_m)
    add_disjunctions(model, cands, ms, big_m)
    add_symmetry_breaking(model, ms)
    check()
    # The relaxations of packgap.models.packing.bounds as valid cuts: the LP alone sees no queueing.
    floor = lower_bound(instance)
    model.srpt_cut = pyo.Constraint(expr=sum(model.C[j] for j in model.J_SET) >= floor.sum_completion)
    model.late_cut = pyo.Constraint(expr=sum(model.L[j] for j in model.J_SET) >= floor.late)
    unit = objective_unit(instance)
    model.objective = pyo.Objective(
        expr=(w.completion * sum(model.C[j] for j in model.J_SET) + w.late * sum(model.L[j] for j in model.J_SET))
        / unit
        + w.constant / unit,
        sense=pyo.minimize,
    )
    return model, cands


def add_assignment(model: pyo.ConcreteModel, instance: PackingInstance, cands: list[Candidate], h: float) -> None:
    """Each job in one chosen group; start 0 unless chosen, else after every arrival."""
    member = {j: [c for c, cand in enumerate(cands) if j in cand.jobs] for j in range(len(instance.jobs))}
    on: dict[int, list[int]] = {c: [] for c in range(len(cands))}
    for c, i in model.A_SET:
        on[c].append(i)

    def chosen(c: int) -> pyo.Expression:
        return sum(model.x[c, i] for i in on[c])

    add_rows(model, "once", model.J_SET, lambda j: sum(chosen(c) for c in member[j]) == 1)
    add_rows(model, "off", model.C_SET, lambda c: model.s[c] <= h * chosen(c))
    add_rows(model, "release", model.C_SET, lambda c: model.s[c] >= cands[c].release * chosen(c))


def add_completion(
    model: pyo.ConcreteModel,
    instance: PackingInstance,
    cands: list[Candidate],
    ms: list[tuple[int, int]],
    big_m: float,
) -> None:
    """C[j] = s + offset of j's chosen group; C[j] <= deadline unless L[j]."""

    def offset(c: int, i: int, j: int) -> float:
        line = cands[c].offsets[ms[i][0]]
        assert line is not None
        return line[cands[c].jobs.index(j)]

    m = model
    add_rows(
        model,
        "completion",
        model.J_SET,
        lambda j: (
            m.C[j]
            == sum(
                m.s[c] + sum(offset(c, i, j) * m.x[c, i] for i in m.M_SET if (c, i) in m.A_SET)
                for c, cand in enumerate(cands)
                if j in cand.jobs
            )
        ),
    )
    add_rows(model, "late", model.J_SET, lambda j: m.C[j] <= instance.jobs[j].deadline + big_m * m.L[j])


def add_disjunctions(model: pyo.ConcreteModel, cands: list[Candidate], ms: list[tuple[int, int]], big_m: float) -> None:
    """Two groups on one machine never overlap (eq. 5); ``y[c, e]`` orders them."""
    pairs = [
        (c, e)
        for c in range(len(cands))
        for e in range(c + 1, len(cands))
        if not set(cands[c].jobs) & set(cands[e].jobs)
    ]
    model.y = pyo.Var(pairs, domain=pyo.Binary)

    def duration(c: int, i: int) -> float:
        d = cands[c].durations[ms[i][0]]
        assert d is not None
        return d

    allowed = set(options(cands, ms))
    triples = [(c, e, i) for c, e in pairs for i in range(len(ms)) if (c, i) in allowed and (e, i) in allowed]

    m = model

    def both_off(c: int, e: int, i: int) -> pyo.Expression:
        return big_m * (2 - m.x[c, i] - m.x[e, i])

    add_rows(
        model,
        "before",
        triples,
        lambda c, e, i: m.s[c] + duration(c, i) <= m.s[e] + big_m * (1 - m.y[c, e]) + both_off(c, e, i),
    )
    add_rows(
        model,
        "after",
        triples,
        lambda c, e, i: m.s[e] + duration(e, i) <= m.s[c] + big_m * m.y[c, e] + both_off(c, e, i),
    )


def add_symmetry_breaking(model: pyo.ConcreteModel, ms: list[tuple[int, int]]) -> None:
    """Machine i + 1 of a type holds no more groups than machine i."""
    pairs = [i for i in range(len(ms) - 1) if ms[i][0] == ms[i + 1][0]]
    m = model
    add_rows(
        model,
        "symmetry",
        pairs,
        lambda i: sum(m.x[c, e] for c, e in m.A_SET if e == i) >= sum(m.x[c, e] for c, e in m.A_SET if e == i + 1),
    )


def extract(model: pyo.ConcreteModel, ms: list[tuple[int, int]]) -> list[tuple[int, int, float]]:
    """Chosen (candidate, type index, start) read from ``x`` and ``s``."""
    return [
        (c, ms[i][0], float(pyo.value(model.s[c])))
        for (c, i), var in model.x.items()
        if var.value is not None and var.value > 0.5
    ]
