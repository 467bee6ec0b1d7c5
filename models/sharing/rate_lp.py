"""A time-indexed LP bound on the sum of completion times, valid with and without preemption.

The horizon [0, H) is cut into T slots of length D, plus an overflow at H. Per job j (model
``a``, G_j GPUs, arrival a_j, least solo time P_j of :func:`packgap.models.sharing.bound.
min_solo_time`) and slot t: the time it runs with every GPU alone, the time it runs beside a
partner of model ``m`` (the slowest partner, when it has several), the GPU-seconds it shares
with model-``m`` jobs, the work W it does (solo seconds); ``late[j]`` is the work done after
H and ``C[j]`` the completion time. Any schedule, preemptive or not, maps to a feasible point,
so the LP optimum is a bound:

* rate cap: running time <= the part of slot t after a_j;
* GPU capacity: G_j x running time - (1/2) shared GPU-seconds, summed, <= N D: a running job
  holds its G_j GPUs (gangs), a shared GPU holds two jobs (C = 2, eq. 9);
* sharing: GPU-seconds shared with model m >= the time credited to m (at least one GPU) and,
  summed over m, <= G_j x the sharing time; balance, models a != b: what a-jobs share with
  b-jobs equals what b-jobs share with a-jobs (eqs. 5-6 slow both). Pairs of one model need
  a second job of it;
* work: W <= alone time + sum_m e_jm x time beside m, and W <= the GPU-weighted average pace
  (1 on alone GPUs, e_jm on GPUs shared with m), where e_jm = P_j / (xi(a, m) P_j^m) <= 1:
  xi(a, m) (eqs. 5-6) times the least solo time P_j^m over sub-batches whose worker fits
  beside a model-m worker at sub-batch 1. The real pace is the slowest partner's, at most
  both. sum_t W + late = P_j;
* sub-batch: a job keeps one sub-batch b_j all its life (eq. 7). Where its solo sub-batch
  b*_j does not fit beside a model-m worker at sub-batch 1, sharing with model m needs
  b_j < b*_j, and then it runs alone at most at pace e_j0 = P_j / (least solo time below
  b*_j) too. z_j in [0, 1] (binary in the MILP): time beside such models <= the slot's part x
  z_j, time alone at full pace <= the slot's part x (1 - z_j), alone at pace e_j0 always;
* mean busy date: C_j >= P_j / 2 + (1 / P_j) (sum_t s_jt W_jt + H late_j), with s_jt =
  max(slot start, a_j), an underestimate of when the work ran: work done at pace <= 1 ends no
  earlier than packed at full pace just before C_j; and C_j >= a_j + P_j;
* conflicts, G_j + G_k > N: the two run with every GPU alone at disjoint times; a job that
  needs the whole cluster (the "star") holds every GPU while it runs, so the other one holds
  a GPU alone only while the star does not run. GPU-seconds alone miss this: a 16-GPU job and
  an 8-GPU job on 16 GPUs cannot progress side by side on 8 + 8 GPUs.

With ``completion_slots`` it is a MILP: per job and slot a binary y_jt, j completes within
slot t (the overflow slot: at or after H), sum_t y_jt = 1, and

* done: the work by the end of slot t >= P_j x sum_{s <= t} y_js;
* nothing runs after completion: running time in slot t <= its part of the slot x
  (1 - sum_{s < t} y_js);
* finish: C_j >= s_jt + W_jt where y_jt = 1 (the work of the completion slot runs at pace
  <= 1 after its start; the row is C_j - W_jt - (s_jt + D) y_jt >= -D, slack where y_jt = 0
  since W_jt <= D), C_j >= H + late_j in the overflow slot, and C_j >= sum_t s_jt y_jt.

Any schedule, preemptive or not, maps to a feasible point (y at the slot where it finishes),
so the MILP optimum, and any dual bound of a search over it, is a bound too.

With ``runs`` (:mod:`packgap.models.sharing.run_lp`) each job also gets its run interval, and
the LP bounds non-preemptive schedules only (the class bound of issue 35). It then takes the
subset bound's blocks too (:mod:`packgap.models.sharing.subset_bound`) as rows: sum over the
block K of C_j >= OPT(K). Every non-preemptive schedule satisfies each (that module's
proof), so every one still maps to a feasible point; where the LP alone leaves a block's jobs
too early and the block's optimum leaves the rest too early, the two together rise above both.

Memory beyond the pairs, topology and non-preemption are relaxed. The bound is not the
solver's objective: :func:`dual_bound` recomputes it from the row prices by weak duality with
every column bounded, then steps down by a relative 1e-9 for float summation, so any prices,
even from a stopped solve, certify a value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from packgap.deadline import check
from packgap.models.sharing import run_lp
from packgap.models.sharing.bound import min_solo_time
from packgap.sharing import SharingInstance
from packgap.sharing.perf import iteration_time, memory_gb

#: Relative step down of the recomputed bound, for float summation over up to ~10^6 terms.
FLOAT_SLACK = 1e-9


@dataclass(frozen=True)
class RateLp:
    """min cost.x subject to row_lower <= A x <= row_upper, lower <= x <= upper (all finite)."""

    cost: np.ndarray
    matrix: sp.csc_matrix
    row_lower: np.ndarray
    row_upper: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    #: Column index of each job's completion time C_j.
    completion: np.ndarray
    #: True for the completion-slot binaries (all False without ``completion_slots``).
    integer: np.ndarray


def shared_solo_time(instance: SharingInstance, j: int, partner_model: str) -> float | None:
    """P_j^b: j's least solo time over sub-batches whose worker fits beside a worker of
    ``partner_model`` at sub-batch 1 (None: none fits)."""
    job = instance.jobs[j]
    model = instance.models[job.model]
    room = instance.cluster.gpu_memory_gb - memory_gb(instance.models[partner_model], 1)
    times = [
        job.iterations * iteration_time(model, job.batch, math.ceil(job.batch / s), job.gpus)
        for s in range(1, job.batch + 1)
        if memory_gb(model, math.ceil(job.batch / s)) <= room + 1e-9
    ]
    return min(times) if times else None


def _solo_batch(instance: SharingInstance, j: int) -> int:
    """b*_j: the sub-batch of :func:`packgap.models.sharing.bound.min_solo_time`."""
    job = instance.jobs[j]
    model = instance.models[job.model]
    return next(
        b
        for b in (math.ceil(job.batch / s) for s in range(1, job.batch + 1))
        if memory_gb(model, b) <= instance.cluster.gpu_memory_gb + 1e-9
    )


def _fits_beside(instance: SharingInstance, j: int, partner_model: str) -> bool:
    """Whether j's worker at b*_j fits beside a ``partner_model`` worker at sub-batch 1."""
    room = instance.cluster.gpu_memory_gb - memory_gb(instance.models[partner_model], 1)
    return memory_gb(instance.models[instance.jobs[j].model], _solo_batch(instance, j)) <= room + 1e-9


def _smaller_batch_time(instance: SharingInstance, j: int) -> float:
    """j's least solo time over sub-batches below b*_j (eq. 7 depends on the step count only)."""
    job = instance.jobs[j]
    model = instance.models[job.model]
    steps = {math.ceil(job.batch / b): b for b in range(1, _solo_batch(instance, j))}
    return min(job.iterations * iteration_time(model, job.batch, b, job.gpus) for b in steps.values())


def _pricing(instance: SharingInstance, solo: list[float]) -> dict[tuple[int, str], float]:
    """e_jb for every job j and partner model b it can share with."""
    count: dict[str, int] = {}
    for job in instance.jobs:
        count[job.model] = count.get(job.model, 0) + 1
    out: dict[tuple[int, str], float] = {}
    if instance.cluster.max_jobs_per_gpu < 2:
        return out
    for j, job in enumerate(instance.jobs):
        for b in sorted(count):
            if count[b] - (job.model == b) < 1:
                continue
            p = shared_solo_time(instance, j, b)
            if p is not None:
                out[(j, b)] = solo[j] / (instance.interference.xi(job.model, b) * p)
    return out


class _Rows:
    """Rows allocated by key, with their bounds."""

    def __init__(self) -> None:
        self.index: dict[object, int] = {}
        self.lower: list[float] = []
        self.upper: list[float] = []

    def __call__(self, key: object, lower: float = -np.inf, upper: float = np.inf) -> int:
        if key not in self.index:
            self.index[key] = len(self.lower)
            self.lower.append(lower)
            self.upper.append(upper)
        return self.index[key]


class _Columns:
    """Columns with their cost, bounds and entries (row, value), as CSC at the end."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.vals: list[float] = []

    def __call__(self, cost: float, upper: float, entries: list[tuple[int, float]], lower: float = 0.0) -> int:
        k = len(self.cost)
        self.cost.append(cost)
        self.lower.append(lower)
        self.upper.append(upper)
        for r, v in entries:
            if v != 0:
                self.rows.append(r)
                self.cols.append(k)
                self.vals.append(v)
        return k

    def enter(self, k: int, entries: list[tuple[int, float]]) -> None:
        """More entries of column ``k`` (rows allocated after it)."""
        for r, v in entries:
            self.rows.append(r)
            self.cols.append(k)
            self.vals.append(v)


def _completion_slots(
    rows: _Rows,
    col: _Columns,
    binaries: list[int],
    j: int,
    p: float,
    grid: tuple[float, float],
    slots: list[tuple[int, float, int]],
    late: int,
) -> list[tuple[int, float]]:
    """Job j's completion-slot binaries (appended to ``binaries``) over its ``slots`` (slot,
    start s_jt, work column) and the overflow; ``grid`` is (H, D). Returns C_j's entries in
    the finish rows."""
    horizon, d = grid
    one = rows(("one", j), 1.0, 1.0)
    done = [rows(("done", j, t), lower=0.0) for t, _, _ in slots]
    for k, (_, _, work) in enumerate(slots):
        col.enter(work, [(r, 1.0) for r in done[k:]])
    rates = [rows(("rate", j, t)) for t, _, _ in slots]
    lengths = [rows.upper[r] for r in rates]
    mean, entries = rows(("slot", j), lower=0.0), []
    for k, (t, start, work) in enumerate(slots):
        finish = rows(("finish", j, t), lower=-d)
        col.enter(work, [(finish, -1.0)])
        after = [(r, length) for r, length in zip(rates[k + 1 :], lengths[k + 1 :], strict=True)]
        y = [(one, 1.0), (mean, -start), (finish, -(start + d)), *((r, -p) for r in done[k:]), *after]
        binaries.append(col(0.0, 1.0, y))
        entries.append((finish, 1.0))
    overflow = rows(("overflow", j), lower=0.0)
    col.enter(late, [(overflow, -1.0)])
    binaries.append(col(0.0, 1.0, [(one, 1.0), (mean, -horizon), (overflow, -horizon)]))
    return [*entries, (mean, 1.0), (overflow, 1.0)]


def _conflict_roles(instance: SharingInstance) -> dict[int, list[tuple[tuple[int, int], str]]]:
    """Per job, the conflict rows it enters and its role there: "pair" (both plain),
    "small" or "star" (the other one, or this one, needs the whole cluster)."""
    jobs, total = instance.jobs, instance.cluster.gpus
    roles: dict[int, list[tuple[tuple[int, int], str]]] = {}
    for a in range(len(jobs)):
        for b in range(a + 1, len(jobs)):
            if jobs[a].gpus + jobs[b].gpus <= total:
                continue
            if jobs[b].gpus == total or jobs[a].gpus == total:
                star, small = (b, a) if jobs[b].gpus == total else (a, b)
                roles.setdefault(star, []).append(((a, b), "star"))
                roles.setdefault(small, []).append(((a, b), "small"))
            else:
                roles.setdefault(a, []).append(((a, b), "pair"))
                roles.setdefault(b, []).append(((a, b), "pair"))
    return roles


def build(
    instance: SharingInstance,
    horizon: float,
    slots: int,
    completion_cap: float,
    completion_slots: bool = False,
    runs: bool = False,
    meetings: bool = True,
    block_sums: Sequence[tuple[Sequence[int], float]] = (),
) -> RateLp:
    """The LP over ``slots`` slots of [0, ``horizon``); ``completion_cap`` bounds each C_j
    from above (any value at least the sum of completion times of a known schedule keeps
    every better schedule feasible); ``completion_slots``: the MILP with y_jt; ``runs``: the
    run intervals of :mod:`packgap.models.sharing.run_lp` (valid for non-preemptive
    schedules only), with its time beside each partner model where ``meetings``; ``block_sums``:
    with ``runs``, (jobs, a lower bound on their summed completions in every non-preemptive
    schedule) rows. The deadline in force is checked per job (:mod:`packgap.deadline`)."""
    if instance.cluster.max_jobs_per_gpu > 2:
        raise ValueError("the rate LP prices pairs only (C <= 2)")
    if block_sums and not runs:
        raise ValueError("block sums hold for non-preemptive schedules only: they need runs=True")
    jobs, total = instance.jobs, instance.cluster.gpus
    n, d = len(jobs), horizon / slots
    solo = [min_solo_time(instance, j) for j in range(n)]
    price = _pricing(instance, solo)
    partners = {j: sorted(m for (jj, m) in price if jj == j) for j in range(n)}
    roles = _conflict_roles(instance)
    check()
    narrow = {j: [m for m in partners[j] if not _fits_beside(instance, j, m)] for j in range(n)}
    slow = {j: solo[j] / _smaller_batch_time(instance, j) for j in range(n) if narrow[j]}
    rows, col = _Rows(), _Columns()
    worst = max([instance.interference.default, *instance.interference.pairs.values()])
    finishes: list[list[tuple[int, float]]] = []
    binaries: list[int] = []
    same: dict[tuple[str, int], list[int]] = {}
    meets: dict[tuple[str, str, int], list[int]] = {}
    for j, job in enumerate(jobs):
        check()
        g, p = job.gpus, solo[j]
        work, busy = rows(("work", j), p, p), rows(("busy", j), lower=p / 2)
        done: list[tuple[int, float, int]] = []
        gate: list[tuple[int, float]] = []
        for t in range(slots):
            length = max(0.0, min(d, (t + 1) * d - job.arrival))
            if length <= 0:
                continue
            start = max(t * d, job.arrival)
            cap, rate = rows(("cap", t), upper=total * d), rows(("rate", j, t), upper=length)
            cuts = [(rows(("conflict", pair, t), upper=d), role) for pair, role in roles.get(j, [])]
            hold = run_lp.holding_rows(rows, j, t) if runs else []
            if not partners[j]:
                # Time running, every GPU alone: its solo work.
                running = [(cap, g), (rate, 1.0), (work, 1.0), (busy, -start / p), *((r, 1.0) for r, _ in cuts), *hold]
                done.append((t, start, col(0.0, length, running)))
                continue
            # The work W done in the slot is at most both credits below (the real pace is the
            # slowest partner's: at most the pace of the one the time is credited to, and at
            # most the GPU-weighted average of 1 alone and e_jm shared).
            credit, average = rows(("credit", j, t), upper=0.0), rows(("average", j, t), upper=0.0)
            met = run_lp.meeting_rows(rows, j, job.model, partners[j], t) if runs and meetings else {}
            paced = [(r, 1.0) for _, r, _, _ in met.values()]
            done.append(
                (t, start, col(0.0, length, [(work, 1.0), (busy, -start / p), (credit, 1.0), (average, 1.0), *paced]))
            )
            hold += [(r, -1.0) for m in met for r in met[m][:2]]
            alone = [(cap, g), (rate, 1.0), (credit, -1.0), (average, -1.0), *((r, 1.0) for r, _ in cuts), *hold]
            gated = j in slow
            if gated:
                # Alone at full pace only with the solo sub-batch (z_j = 0), at e_j0 always.
                full, may = rows(("full", j, t), upper=length), rows(("may share", j, t), upper=0.0)
                gate += [(full, length), (may, -length)]
                col(0.0, length, [(cap, g), (rate, 1.0), (credit, -slow[j]), (average, -slow[j]), *alone[4:]])
                alone.append((full, 1.0))
            col(0.0, length, alone)
            most = rows(("most", j, t), upper=0.0)
            for m in partners[j]:
                e, least = price[(j, m)], rows(("least", j, m, t), upper=0.0)
                # Time running beside a model-m partner (the slowest one), credited e_jm ...
                timed = [(cap, g), (rate, 1.0), (credit, -e), (average, -1.0), (least, 1.0), (most, -g), *hold]
                if gated and m in narrow[j]:
                    timed.append((may, 1.0))
                col(0.0, length, timed + [(r, 1.0) for r, role in cuts if role != "pair"])
                # ... and GPU-seconds shared with model m: >= that time, <= G_j x all sharing time.
                shared = [(cap, -0.5), (least, -1.0), (most, 1.0), (average, (1.0 - e) / g)]
                shared += [(r, -1.0 / g) for r, role in cuts if role == "small"]
                if met:
                    running_time, pace_row, least_time, meet = met[m]
                    shared.append((least_time, 1.0 / g))
                    entries = [(running_time, 1.0), (pace_row, 1.0 - e), (least_time, -1.0)]
                    entries += [(meet, 2.0 if m == job.model else 1.0), (rows(("agg", job.model, m, t), 0.0, 0.0), 1.0)]
                    col(0.0, length, entries)
                    meets.setdefault((m, job.model, t), []).append(meet)
                if m != job.model:
                    lo, hi = sorted((job.model, m))
                    shared.append((rows(("balance", lo, hi, t), 0.0, 0.0), 1.0 if job.model == lo else -1.0))
                elif runs:
                    own = rows(("own share", j, t), upper=0.0)
                    same.setdefault((m, t), []).append(own)
                    shared += [(rows(("same", m, t), 0.0, 0.0), 1.0), (own, 2.0)]
                col(0.0, g * length, shared)
        if gate:
            z = col(0.0, 1.0, gate)
            if completion_slots:
                binaries.append(z)
        late = col(0.0, p, [(work, 1.0), (busy, -horizon / p)])
        finishes.append(
            _completion_slots(rows, col, binaries, j, p, (horizon, d), done, late) if completion_slots else []
        )
        if runs:
            lengths = [rows.upper[rows.index[("rate", j, t)]] for t, _, _ in done]
            slowest = job.iterations * iteration_time(instance.models[job.model], job.batch, 1, g) * worst
            window = run_lp.Window(job.arrival, p, horizon, d, [t for t, _, _ in done], lengths, slowest)
            finishes[-1].extend(run_lp.run_columns(rows, col, j, window, late))
    for (a, b, t), owners in meets.items():
        # Agg: the time model-a jobs spend beside model-b partners in slot t.
        count = sum(1 for job in jobs if job.model == a)
        col(0.0, count * d, [(rows(("agg", a, b, t), 0.0, 0.0), -1.0), *((r, -1.0) for r in owners)])
    for (m, t), owns in same.items():
        # S: every GPU-second model-m jobs share with model m in slot t (each counted twice).
        col(0.0, 2.0 * total * d, [(rows(("same", m, t)), -1.0), *((r, -1.0) for r in owns)])
    for k, (members, block_least) in enumerate(block_sums):
        row = rows(("block", k), lower=block_least)
        for j in members:
            finishes[j].append((row, 1.0))
    completion = [
        col(
            1.0,
            max(completion_cap, job.arrival + solo[j]),
            [(rows(("busy", j)), 1.0), *finishes[j]],
            lower=job.arrival + solo[j],
        )
        for j, job in enumerate(jobs)
    ]
    check()
    matrix = sp.csc_matrix((col.vals, (col.rows, col.cols)), shape=(len(rows.lower), len(col.cost)))
    return RateLp(
        np.array(col.cost),
        matrix,
        np.array(rows.lower),
        np.array(rows.upper),
        np.array(col.lower),
        np.array(col.upper),
        np.array(completion, dtype=np.intp),
        np.isin(np.arange(len(col.cost)), binaries),
    )


def dual_bound(lp: RateLp, prices: np.ndarray) -> float:
    """A lower bound on the LP optimum from any row prices (weak duality).

    For min c.x over lower <= x <= upper and row_lower <= A x <= row_upper, any y gives
    c.x >= sum_i (y_i row_lower_i if y_i > 0 else y_i row_upper_i) + sum_k min over the
    column's bounds of (c - A^T y)_k x_k; prices of the wrong sign for a row with an infinite
    side are set to 0 first. Stepped down by :data:`FLOAT_SLACK`.
    """
    y = np.where((prices > 0) & ~np.isfinite(lp.row_lower), 0.0, prices)
    y = np.where((y < 0) & ~np.isfinite(lp.row_upper), 0.0, y)
    rows = np.where(y > 0, y * np.where(np.isfinite(lp.row_lower), lp.row_lower, 0.0), 0.0)
    rows += np.where(y < 0, y * np.where(np.isfinite(lp.row_upper), lp.row_upper, 0.0), 0.0)
    reduced = lp.cost - lp.matrix.T @ y
    columns = np.minimum(reduced * lp.lower, reduced * lp.upper)
    value = float(rows.sum() + columns.sum())
    return value - FLOAT_SLACK * abs(value)
