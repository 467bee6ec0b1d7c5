"""Time-indexed relaxation of the sharing problem (Pyomo MILP and CP-SAT; built, not solved).

The horizon [0, H) (H: a known schedule's makespan) is cut into T slots of length D plus an
overflow slot [H, inf). For job j and slot t, ``u[j,t]`` and ``v[j,t]`` are the fractions
of the slot it runs alone and sharing; ``w[j,t]`` = 1 once it has completed by the end of
slot t. Every real schedule, preemptive or not, maps to a feasible point, so the optimum is
a valid lower bound:

* availability: u + v <= the part of slot t after a_j, and <= 1 - w[j,t-1] (nothing runs
  after completion), w monotone, everyone done in the overflow slot;
* work: D sum_t (u + v / xi_j) >= P_j w[j,T-1], with xi_j the least ratio of j beside any
  partner and P_j its least solo time (:func:`packgap.models.sharing.bound.min_solo_time`): a
  job done inside the horizon got its work there;
* capacity per slot: sum_j G_j (u + v / C) <= GPUs (alone a job fills its G_j GPUs, sharing
  at least 1/C of each, eq. 9);
* completion: C_j >= a_j + P_j and C_j >= D x (slots before its completion slot), which is
  H for a job finishing in the overflow slot; in the MILP also the mean-busy-date cut
  C_j >= M_j + P_j / 2 (a job runs at most at its solo pace, so its work ends no earlier
  than if packed at full pace just before C_j), with M_j counted from slot starts over the
  work inside the horizon, an underestimate.

Gangs, memory and non-preemption are relaxed. Objective: min sum_j C_j.

CP-SAT needs integers: fractions become counts of 1/K of a slot. Rounding a fraction up
to the next 1/K adds at most G_j (C + 1) / (C K) GPUs of a slot per job, which the capacity
row adds as slack (K = 100 keeps that slack near 10 % on 16 GPUs); work coefficients are
rounded up and work demands down; times are counted in units q and rounded down. Every
rounding enlarges the feasible set, so the scaled optimum stays a valid bound. The CP-SAT
model has no mean-busy cut (rounding its coefficients safely would cost most of its
strength), so its bound is the weaker of the two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from packgap.deadline import check, checked
from packgap.models.sharing.bound import min_solo_time
from packgap.sharing import SharingInstance

#: CP-SAT: fractions of a slot in 1/K steps, work in 1/WORK_SCALE s, times in units of q.
K = 100
WORK_SCALE = 1000


@dataclass(frozen=True)
class Slots:
    """The data both models share."""

    n: int
    slots: int
    length: float
    solo: tuple[float, ...]
    xi: tuple[float, ...]
    avail: tuple[tuple[float, ...], ...]
    gpus: tuple[int, ...]
    capacity: int
    per_gpu: int
    arrival: tuple[float, ...]


def slot_data(instance: SharingInstance, horizon: float, slots: int) -> Slots:
    n = len(instance.jobs)
    length = horizon / slots
    solo = tuple(min_solo_time(instance, i) for i in range(n))
    ids = [j.id for j in instance.jobs]
    xi = instance.interference
    jobs = instance.jobs
    least = tuple(min([xi.xi(a.model, b.model) for b in jobs if b.id != a.id], default=xi.default) for a in jobs)
    avail = tuple(
        tuple(min(1.0, max(0.0, ((t + 1) * length - j.arrival) / length)) for t in range(slots)) for j in jobs
    )
    assert len(ids) == n
    return Slots(
        n,
        slots,
        length,
        solo,
        least,
        avail,
        tuple(j.gpus for j in jobs),
        instance.cluster.gpus,
        instance.cluster.max_jobs_per_gpu,
        tuple(j.arrival for j in jobs),
    )


def build_milp(d: Slots) -> Any:
    """The relaxation as a Pyomo MILP (binaries w only), checking the deadline in force per job."""
    import pyomo.environ as pyo

    m = pyo.ConcreteModel(name="sharing-time-indexed")
    J, T = range(d.n), range(d.slots)
    m.u = pyo.Var(J, T, bounds=(0, 1))
    m.v = pyo.Var(J, T, bounds=(0, 1))
    m.w = pyo.Var(J, T, domain=pyo.Binary)
    m.C = pyo.Var(J, bounds=(0, None))
    m.c = pyo.ConstraintList()
    for j in J:
        check()
        for t in T:
            before = 1 - m.w[j, t - 1] if t > 0 else 1
            m.c.add(m.u[j, t] + m.v[j, t] <= d.avail[j][t])
            m.c.add(m.u[j, t] + m.v[j, t] <= before)
            if t > 0:
                m.c.add(m.w[j, t] >= m.w[j, t - 1])
        work = sum(d.length * (m.u[j, t] + m.v[j, t] / d.xi[j]) for t in T)
        m.c.add(work >= d.solo[j] * m.w[j, d.slots - 1])
        m.c.add(m.C[j] >= d.arrival[j] + d.solo[j])
        m.c.add(m.C[j] >= d.length * sum(1 - m.w[j, t] for t in T))
        busy = sum(t * d.length * d.length * (m.u[j, t] + m.v[j, t] / d.xi[j]) for t in T) / d.solo[j]
        m.c.add(m.C[j] >= busy + d.solo[j] / 2)
    for t in checked(T):
        m.c.add(sum(d.gpus[j] * (m.u[j, t] + m.v[j, t] / d.per_gpu) for j in J) <= d.capacity)
    m.objective = pyo.Objective(expr=sum(m.C[j] for j in J), sense=pyo.minimize)
    return m


def milp_completions(m: Any, d: Slots) -> list[float]:
    """Each job's relaxed completion time in the solved MILP (its replay priority)."""
    return [float(m.C[j].value) for j in range(d.n)]


@dataclass(frozen=True)
class CpModel:
    model: Any
    completion: list[Any]
    time_unit: float


def build_cpsat(d: Slots) -> CpModel:
    """The relaxation in integers for CP-SAT, rounded only in the relaxing direction (the
    deadline in force checked per job)."""
    from packgap.solvers.cpsat import new_model

    model = new_model()
    q = d.length / 100.0
    J, T = range(d.n), range(d.slots)
    u = {(j, t): model.NewIntVar(0, K, f"u{j}_{t}") for j in J for t in T}
    v = {(j, t): model.NewIntVar(0, K, f"v{j}_{t}") for j in J for t in T}
    w = {(j, t): model.NewBoolVar(f"w{j}_{t}") for j in J for t in T}
    slot_units = math.floor(d.length / q)
    horizon_units = math.ceil(d.slots * d.length / q) + 1
    completion = []
    for j in J:
        check()
        for t in T:
            # u and v are each rounded up: their sum may grow by 2 steps.
            cap = min(K + 2, math.ceil(d.avail[j][t] * K) + 2) if d.avail[j][t] > 0 else 0
            model.Add(u[j, t] + v[j, t] <= cap)
            if t > 0:
                model.Add(u[j, t] + v[j, t] <= (K + 2) * (1 - w[j, t - 1]))
                model.Add(w[j, t] >= w[j, t - 1])
        cu = math.ceil(d.length * WORK_SCALE / K)
        cv = math.ceil(d.length * WORK_SCALE / (K * d.xi[j]))
        need = math.floor(d.solo[j] * WORK_SCALE)
        model.Add(sum(cu * u[j, t] + cv * v[j, t] for t in T) >= need * w[j, d.slots - 1])
        c = model.NewIntVar(0, horizon_units + math.ceil((d.arrival[j] + d.solo[j]) / q), f"C{j}")
        model.Add(c >= math.floor((d.arrival[j] + d.solo[j]) / q))
        model.Add(c >= slot_units * sum(1 - w[j, t] for t in T))
        completion.append(c)
    slack = sum(g * (d.per_gpu + 1) for g in d.gpus)
    for t in checked(T):
        model.Add(sum(d.gpus[j] * (d.per_gpu * u[j, t] + v[j, t]) for j in J) <= d.per_gpu * K * d.capacity + slack)
    model.Minimize(sum(completion))
    return CpModel(model, completion, q)
