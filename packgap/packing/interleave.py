"""Iteration time of interleaved jobs: CUCKOO's AM estimator and Muri's Muri-P model.

AM (CUCKOO section 3.2.3, Alg. 1 + Alg. 2)
------------------------------------------
Every job's iteration is four main-thread stages, in the words of Table 3's columns:
data loading (``S``), forward (``F``), backward (``B``) and communication (``C``). Jobs of a
group run their stages in lockstep slots, the job in position ``p`` one slot behind the one
in position ``p - 1``; slot ``i`` lasts ``R_i`` and a group iteration is four slots (Alg. 1
adds ``R_i + R_{i-1} + R_{i-2} + R_{i-3}`` once the slot durations repeat).

Inside a slot (Alg. 2), with ``f, b, c`` the resource time still owed by each job:

* data loading is synchronous: a job in its ``S`` stage holds the slot for ``S`` ms;
* at its ``F`` stage a job queues ``F`` then ``B`` on the GPU (asynchronous invocation, run
  back to back, carried across slots) and the slot waits until the forward is done
  ("forward propagation needs to be synchronized during the GPU computing stage");
* at its ``B`` stage the backward callback launches the communication ``C``, and the slot
  waits until it is done; a ``before_communication`` job (BERT, GPT: gradients synchronised
  before the communication stage) also waits for its backward GPU work, while a
  ``before_forward`` job (VGG, ResNet) lets backward work spill on until the next forward;
* interference (section 3.2.2): when two or more jobs owe GPU work at the start of a slot,
  all GPU work in that slot takes ``interference`` times longer; likewise for the network.

Readings chosen where the paper is silent, each the one that reproduces Table 4 exactly
(f0 = 74, b0 = 152, b1 = 122, c1 = 363, R = 10, 72, 363, 98, 10, 72; 543 ms):
the slot-wide (not overlap-exact) interference factor, communication starting at the
``B`` stage, and the ``B``-stage synchronisation point of both rules. Table 4 starts BERT
(Table 3's "Order 1") first; :func:`am_iteration` takes the jobs in the order given and
:func:`am_group_iteration` keeps the better of the two orders, as Muri keeps its best
permutation.

Muri-P (CUCKOO section 4.3, after Muri section 3)
-------------------------------------------------
Each iteration is split into resource-exclusive stages (data loading ``S``, GPU ``F + B``,
network ``C``), each using one resource without interference. Interleaved jobs rotate
through the stages: in slot ``t`` the job in position ``p`` runs its stage ``(t - p) mod 3``,
a slot lasts as long as its longest stage, and the best job order is kept (Muri's
``calc_iteration_time`` with ``ordering=1``). One job alone takes ``S + F + B + C``.
This is Muri's ``multi_resource=3``, not the default its simulator and testbed run.

Muri as released (GitHub Rivendile/Muri, commit 4e69a78, ``simulator/matching.py``)
---------------------------------------------------------------------------------
Muri's simulator runs ``multi_resource=4``: a group iteration is four slots, the job in
position ``p`` runs its network stage ``C`` in slot ``p - 1``, its GPU stage ``F + B`` in
slot ``p - 2`` and its data loading ``S`` across the two slots ``p - 3`` and ``p - 2``
(positions mod 4), so data loading overlaps the slot before. Writing ``f_i`` for the
time slot ``i`` ends (``f_0 = 0``), slot ``i`` ends once each stage running in it has had
its time since it started: ``f_{i+1} = max(0, f_i + C, f_i + G, f_{i-1} + S)`` over the
jobs in those stages (as released: a slot no stage runs in "ends" at 0, so with fewer than
four jobs a boundary can fall before the previous one). The iteration time is
``f_{i+1} - f_{i-3}`` at the first slot where it equals the one before within 0.1 %
(Muri's ``rel_tol``), else the second cycle's; the best
job order is kept, and a pair may also run ``max(S_a, G_b + C_b) + max(S_b, G_a + C_a)``
(each job's data loading overlapping the other's GPU and network stages).
:func:`muri_iteration` is that number; Muri's simulator then scales a group of 2, 3 and 4
jobs by :data:`MURI_PACKED_FACTORS` and a job alone runs its measured iteration time
(the trace's ``iteration_time``) times :data:`MURI_ALONE_FACTOR`
(``jobs.py: itertime_overhead_list``); :func:`muri_group_iteration` applies both.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

SyncRule = Literal["before_communication", "before_forward"]
SYNC_RULES: tuple[SyncRule, ...] = ("before_communication", "before_forward")

LOAD, FORWARD, BACKWARD, COMMUNICATION = range(4)
#: Main-thread stages per iteration (AM) and slots per group iteration (Alg. 1).
STAGES = 4
#: Alg. 1 stops when a whole iteration repeats; longer periods are averaged over.
MAX_PERIOD = 4
MAX_CYCLES = 256
_TOL = 1e-9


@dataclass(frozen=True)
class StageProfile:
    """Per-iteration resource times of one job on one GPU type, in ms (Table 3)."""

    load: float
    forward: float
    backward: float
    communication: float
    #: Measured standalone iteration time (ms) when the trace gives one (Muri's
    #: ``iteration_time``); None: ``S + F + B + C``.
    measured: float | None = None

    @property
    def alone(self) -> float:
        """Standalone iteration time (ms): the measured one, else the sum of the stages."""
        if self.measured is not None:
            return self.measured
        return self.load + self.forward + self.backward + self.communication

    @property
    def resource_exclusive(self) -> tuple[float, float, float]:
        """Muri-P's stages: data loading, GPU (forward + backward), network."""
        return (self.load, self.forward + self.backward, self.communication)


@dataclass(frozen=True)
class Member:
    """A job as the estimators see it: its stage profile and synchronisation rule."""

    profile: StageProfile
    sync: SyncRule


@dataclass(frozen=True)
class SlotUsage:
    """One row of Table 4: resource time each job spent in slot ``i`` and the slot length."""

    forward: tuple[float, ...]
    backward: tuple[float, ...]
    communication: tuple[float, ...]
    duration: float


@dataclass(frozen=True)
class AmTrace:
    """Alg. 1's run: every slot simulated and the converged group iteration time (ms)."""

    slots: tuple[SlotUsage, ...]
    iteration: float


class _Job:
    """What one job still owes: GPU work queue (kind, ms) and launched communication (ms)."""

    def __init__(self, member: Member) -> None:
        self.member = member
        self.gpu: list[list[float]] = []
        self.comm = 0.0
        self.unlaunched = 0.0


def _advance(queue: list[list[float]], factor: float, window: float) -> tuple[float, float]:
    """Run a job's GPU queue for ``window`` ms; return (forward, backward) ms spent."""
    spent = [0.0, 0.0]
    left = window
    while queue and left > _TOL:
        kind, work = queue[0]
        used = min(left, work * factor)
        spent[int(kind)] += used
        left -= used
        queue[0][1] = work - used / factor
        if queue[0][1] <= _TOL:
            queue.pop(0)
    return spent[0], spent[1]


def _slot(jobs: list[_Job], slot: int, interference: float) -> SlotUsage:
    stages = [(slot - p) % STAGES if slot >= p else None for p in range(len(jobs))]
    for job, stage in zip(jobs, stages, strict=True):
        prof = job.member.profile
        if stage == FORWARD:
            job.gpu += [[0, prof.forward], [1, prof.backward]]
            job.unlaunched += prof.communication
        elif stage == BACKWARD:
            job.comm += job.unlaunched
            job.unlaunched = 0.0
    gpu_factor = interference if sum(1 for j in jobs if j.gpu) >= 2 else 1.0
    net_factor = interference if sum(1 for j in jobs if j.comm > _TOL) >= 2 else 1.0
    duration = 0.0
    for job, stage in zip(jobs, stages, strict=True):
        gpu_all = sum(w for _, w in job.gpu) * gpu_factor
        if stage == LOAD:
            duration = max(duration, job.member.profile.load)
        elif stage == FORWARD:
            # The new forward is the second-to-last item; leftover backward work runs first.
            duration = max(duration, gpu_all - job.gpu[-1][1] * gpu_factor)
        elif stage == BACKWARD:
            duration = max(duration, job.comm * net_factor)
            if job.member.sync == "before_communication":
                duration = max(duration, gpu_all)
    fwd, bwd, com = [], [], []
    for job in jobs:
        f, b = _advance(job.gpu, gpu_factor, duration)
        used = min(duration, job.comm * net_factor)
        job.comm -= used / net_factor
        fwd.append(f)
        bwd.append(b)
        com.append(used)
    return SlotUsage(tuple(fwd), tuple(bwd), tuple(com), duration)


def _period(cycles: list[tuple[float, ...]]) -> int | None:
    for p in range(1, MAX_PERIOD + 1):
        if len(cycles) >= 2 * p and all(
            abs(a - b) <= _TOL * max(1.0, abs(a))
            for a, b in zip(itertools.chain(*cycles[-p:]), itertools.chain(*cycles[-2 * p : -p]), strict=True)
        ):
            return p
    return None


def am_trace(members: Sequence[Member], interference: float = 2.0) -> AmTrace:
    """Run Alg. 1 on ``members`` in the order given (position 0 starts first).

    Slots are grouped four at a time from slot 0; once the last ``p`` groups repeat the ``p``
    before them (``p`` = 1 for Table 4), the iteration time is their mean sum. Without
    convergence after ``MAX_CYCLES`` iterations the mean of the last ``MAX_PERIOD`` is used.
    """
    if not members:
        raise ValueError("AM needs at least one job")
    if interference < 1:
        raise ValueError(f"interference coefficient must be >= 1, got {interference}")
    jobs = [_Job(m) for m in members]
    slots: list[SlotUsage] = []
    cycles: list[tuple[float, ...]] = []
    period: int | None = None
    while len(cycles) < MAX_CYCLES:
        for _ in range(STAGES):
            slots.append(_slot(jobs, len(slots), interference))
        cycles.append(tuple(s.duration for s in slots[-STAGES:]))
        period = _period(cycles)
        if period is not None:
            break
    window = cycles[-(period or MAX_PERIOD) :]
    return AmTrace(tuple(slots), sum(map(sum, window)) / len(window))


@lru_cache(maxsize=1 << 16)
def am_iteration(members: tuple[Member, ...], interference: float = 2.0) -> float:
    """AM iteration time (ms) of ``members`` interleaved in the order given."""
    return am_trace(members, interference).iteration


@lru_cache(maxsize=1 << 16)
def am_group_iteration(members: tuple[Member, ...], interference: float = 2.0) -> float:
    """AM iteration time (ms) of a group in its better job order; cached because packing asks
    for the same few job kinds at every online round (one lookup instead of one per order)."""
    return min(am_iteration(tuple(p), interference) for p in itertools.permutations(members))


@lru_cache(maxsize=1 << 16)
def muri_p_iteration(profiles: tuple[StageProfile, ...]) -> float:
    """Muri-P iteration time (ms): rotating resource-exclusive stages, best job order."""
    if len(profiles) == 1:
        return sum(profiles[0].resource_exclusive)
    stages = len(profiles[0].resource_exclusive)
    best = float("inf")
    for order in itertools.permutations(profiles):
        cycle = sum(max(job.resource_exclusive[(t - p) % stages] for p, job in enumerate(order)) for t in range(stages))
        best = min(best, cycle)
    return best


#: Muri's packed-time factors for groups of 2, 3 and 4 jobs (``jobs.py``, 1.33 / 1.5 / 1.37
#: over the standalone factor).
MURI_PACKED_FACTORS = {2: 1.33 / 1.015, 3: 1.5 / 1.015, 4: 1.37 / 1.015}
#: Muri's factor on a job's measured standalone iteration time.
MURI_ALONE_FACTOR = 1.015
#: Slots per group iteration in Muri's default model and the tolerance its recurrence stops at.
MURI_SLOTS = 4
_MURI_CYCLES = 2
_MURI_REL_TOL = 1e-3


def _muri_cycle(order: Sequence[tuple[float, float, float]]) -> float:
    """Muri's 4-slot recurrence (module docstring) for jobs (S, G, C) in positions 0..n-1."""
    n = len(order)
    ends = [0.0] * (MURI_SLOTS * _MURI_CYCLES + 1)
    for i in range(MURI_SLOTS * _MURI_CYCLES):
        comm, gpu, load = (i + 1) % MURI_SLOTS, (i + 2) % MURI_SLOTS, (i + 3) % MURI_SLOTS
        end = 0.0
        if comm < n:
            end = max(end, ends[i] + order[comm][2])
        if gpu < n:
            end = max(end, ends[i] + order[gpu][1])
        if i > 0 and load < n:
            end = max(end, ends[i - 1] + order[load][0])
        ends[i + 1] = end
        if i >= MURI_SLOTS and math.isclose(end - ends[i - 3], ends[i] - ends[i - 4], rel_tol=_MURI_REL_TOL):
            return end - ends[i - 3]
    return ends[-1] - ends[-1 - MURI_SLOTS]


@lru_cache(maxsize=1 << 16)
def muri_iteration(profiles: tuple[StageProfile, ...], multi_resource: int = 4) -> float:
    """Muri's iteration time (ms) of a group of 2-4 jobs before its packed-time factor, best
    job order: the 4-slot recurrence (``multi_resource=4``) or Muri-P (``3``)."""
    if multi_resource == 3:
        return muri_p_iteration(profiles)
    if multi_resource != MURI_SLOTS:
        raise ValueError(f"multi_resource must be 3 or 4, got {multi_resource}")
    stages = [p.resource_exclusive for p in profiles]
    best = min(_muri_cycle(order) for order in itertools.permutations(stages))
    if len(stages) == 2:
        (sa, ga, ca), (sb, gb, cb) = stages
        best = min(best, max(sa, gb + cb) + max(sb, ga + ca))
    return best


@lru_cache(maxsize=1 << 16)
def muri_group_iteration(profiles: tuple[StageProfile, ...], multi_resource: int = 4) -> float:
    """Iteration time (ms) in Muri's simulator: alone, the standalone time x 1.015; a group of
    2-4, :func:`muri_iteration` x its packed-time factor."""
    if len(profiles) == 1:
        return profiles[0].alone * MURI_ALONE_FACTOR
    if len(profiles) not in MURI_PACKED_FACTORS:
        raise ValueError(f"Muri packs 1 to 4 jobs, got {len(profiles)}")
    return muri_iteration(profiles, multi_resource) * MURI_PACKED_FACTORS[len(profiles)]
