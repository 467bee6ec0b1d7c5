"""The subset bound: the optimum of a sub-instance bounds the sum of its jobs' completions.

Validity. Take any non-preemptive schedule of the instance (SJF-BSBF's model, section IV:
each job starts once on G_j GPUs at a ladder sub-batch and keeps them, eqs. 9-10) and a set
K of its jobs. Keep K's jobs with their starts, GPUs and sub-batches and drop the rest. By
induction over the events, every kept job has progressed at least as far at every instant:
while that holds, a kept job still running in the sub-schedule is still running in the
schedule too, so its partners there include its partners here, and its pace, the pace of
its slowest worker beside its worst partner (eqs. 5-7, xi >= 1), is no lower. So no kept job
finishes later, and the sub-schedule is a schedule of the sub-instance K (fewer holders per
GPU: C and memory still fit): OPT(K) <= sum over K of C_j. Over a partition of the jobs into
blocks the block optima add up to a lower bound on the whole sum. Blocks of two are the
pair bound of :mod:`packgap.models.sharing.pair_bound` without its conflict condition; a
block of three or more prices what no pair does, such as a job that must either wait for a
whole-cluster gang job or slow it down, beside another that faces the same choice.

OPT(K) is exact-bb's on the sub-instance, over every ladder sub-batch (so it bounds the
largest-sub-batch class too): its proven optimum, or its proven bound where its search
stops. A block whose jobs can all run alone from their arrivals at once (their solo
intervals never ask for more than the cluster's GPUs together) has OPT(K) = sum of a_j +
P_j and is not searched. The best partition of every set of jobs comes from dynamic
programming over the subsets (a set's best: one block holding its lowest job, plus the best
of the rest), so a node of the branch and bound reads the best partition of its waiting
jobs in one lookup: they start no earlier than their arrivals in every schedule below it,
so the argument above bounds their completions there too.

Cost: every block of at most ``size`` jobs (793 of up to four jobs out of 12) and 2^n sets,
so the bound is built up to :data:`MAX_JOBS` jobs only. It does not scale to whole
workloads: on a 240-job generated workload the best partition of blocks of four jobs
adjacent in arrival order adds nothing to the jobs' own solo bounds (measured, issue 35):
there the jobs wait for the cluster's capacity as a whole, not for a few partners. Beyond
:data:`MAX_JOBS` jobs :func:`windowed` gives the class bound's LP the blocks of jobs that
arrive close together as rows, without the partition (the LP prices overlapping blocks
together, which a sum of blocks cannot).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from packgap.sharing import SharingInstance

#: The largest block. Measured on the README instances, seeds 1-10 (the class bound's mean
#: distance below exact-bb's optimum, 6 / 8 jobs): no blocks 6.3 / 8.0 %, up to 3 jobs 3.3 /
#: 4.8 %, up to 4 2.0 / 3.9 %, up to 5 0.3 / 2.4 % (tables built in at most 0.5 / 2.0 s at 4,
#: 0.8 / 5.0 s at 5). Five of six jobs is nearly the whole instance; four keeps the count of
#: blocks polynomial in the job count.
SIZE = 4
#: The most jobs the bound is built for: the table has 2^n entries.
MAX_JOBS = 12
#: Beyond :data:`MAX_JOBS`, blocks are drawn from this many consecutive arrivals
#: (:func:`windowed`).
WIDTH = 8
#: The share of a time limit the table may take (exact-bb's, the class bound's).
SHARE = 0.25
#: A block's optimum counts when it beats its jobs' solo bounds by more than this (s).
GAIN_TOL = 1e-9

#: A lower bound on a sub-instance's optimal sum of completions, searched until a deadline
#: (``time.perf_counter``), given the table of the sub-instance's own smaller blocks (None for
#: a block of two).
BlockSolver = Callable[[SharingInstance, float, "SubsetBound | None"], float]


@dataclass(frozen=True)
class SubsetBound:
    """``best[mask]``: the bound on the sum of completions of the jobs in ``mask`` (bit i: the
    instance's job i), from the best partition into blocks; ``blocks``: each block (a mask
    of two or more jobs) whose optimum beats its jobs' solo bounds, with that optimum;
    ``complete``: every block of at most ``size`` jobs was searched before the deadline."""

    size: int
    blocks: dict[int, float]
    best: list[float]
    complete: bool
    #: Per mask, the block of its best partition that holds its lowest job.
    choice: list[int]

    def sums(self) -> list[tuple[list[int], float]]:
        """Each block's jobs with its optimum (rows of the class bound's LP)."""
        return [(members(mask), value) for mask, value in self.blocks.items()]

    def refined(self, mask: int, own: Mapping[int, float]) -> float:
        """The best partition of ``mask`` with each block's bound raised to the sum of its jobs'
        own bounds ``own`` (at a node: item 1's; the larger of two bounds on one block's sum)."""
        total = 0.0
        while mask:
            block = self.choice[mask]
            total += max(self.blocks.get(block, self.best[block]), sum(own[j] for j in members(block)))
            mask ^= block
        return total


def mask_of(jobs: Iterable[int]) -> int:
    return sum(1 << j for j in jobs)


def members(mask: int) -> list[int]:
    """The jobs of ``mask``, in order (the inverse of :func:`mask_of`)."""
    return [j for j in range(mask.bit_length()) if mask >> j & 1]


def overload(instance: SharingInstance, block: Sequence[int], solo: Sequence[float]) -> float:
    """The GPU-seconds the block's jobs, each started alone at its arrival, would ask for beyond
    the cluster's GPUs (0: each runs its solo time and the block gains nothing)."""
    events = []
    for j in block:
        job = instance.jobs[j]
        events += [(job.arrival + solo[j], -job.gpus), (job.arrival, job.gpus)]
    held, last, over = 0, 0.0, 0.0
    for t, gpus in sorted(events):
        over += max(0, held - instance.cluster.gpus) * (t - last)
        held, last = held + gpus, t
    return over


def build(
    instance: SharingInstance, solo: Sequence[float], solve_block: BlockSolver, size: int, deadline: float
) -> SubsetBound:
    """The table of the module docstring; ``solo[j]``: job j's least solo time P_j. Blocks are
    searched by size, the smaller first (within a size by :func:`overload`), until ``deadline``;
    those not reached by then are left out (the partition uses smaller blocks), so the table
    stays valid."""
    n = len(instance.jobs)
    if n > MAX_JOBS:
        raise ValueError(f"the subset bound is built for at most {MAX_JOBS} jobs, not {n}")

    # Within a size the most overloaded blocks first, so that a table cut short by its deadline
    # holds those that gain most (README 12 jobs, blocks of up to six, 60 s: seed 5 stopped 5.7 %
    # below its best schedule instead of 9.2 %, seed 1 3.2 % instead of 3.8 %; measured).
    def most_overloaded(k: int) -> list[tuple[int, ...]]:
        return sorted(itertools.combinations(range(n), k), key=lambda b: -overload(instance, b, solo))

    every = (block for k in range(2, min(size, n) + 1) for block in most_overloaded(k))
    found, complete = block_optima(instance, every, solo, solve_block, deadline)
    blocks = {mask_of(block): value for block, value in found.items()}
    alone = [j.arrival + p for j, p in zip(instance.jobs, solo, strict=True)]
    best, choice = _partitions(alone, blocks)
    return SubsetBound(size, blocks, best, complete, choice)


def windowed(
    instance: SharingInstance, solo: Sequence[float], solve_block: BlockSolver, size: int, width: int, deadline: float
) -> list[tuple[list[int], float]]:
    """The blocks of at most ``size`` jobs within ``width`` consecutive arrivals, with their
    optima where these beat the jobs' solo bounds (smaller blocks first, until ``deadline``):
    rows of the class bound's LP beyond :data:`MAX_JOBS` jobs, where the table of every block
    and every set does not fit. Each is valid by the argument of the module docstring; they
    overlap, so they are not added up, only priced together by the LP."""
    order = sorted(range(len(instance.jobs)), key=lambda j: instance.jobs[j].arrival)
    near = (
        tuple(sorted((first, *rest)))
        for k in range(2, size + 1)
        for i, first in enumerate(order)
        for rest in itertools.combinations(order[i + 1 : i + width], k - 1)
    )
    found, _ = block_optima(instance, near, solo, solve_block, deadline)
    return [(list(block), value) for block, value in found.items()]


def block_optima(
    instance: SharingInstance,
    candidates: Iterable[tuple[int, ...]],
    solo: Sequence[float],
    solve_block: BlockSolver,
    deadline: float,
) -> tuple[dict[tuple[int, ...], float], bool]:
    """Each candidate block with an :func:`overload` (in the given order, until ``deadline``)
    whose optimum beats its jobs' solo bounds a_j + P_j, with that optimum; and whether every candidate was
    reached. Each block's search gets the table of its sub-blocks found so far
    (:func:`inner_table`): the candidates come smaller first, so those of a block of k jobs
    are all in (README 10 jobs x 16 GPUs, seeds 1 and 4, blocks of up to five: the table in
    12.0 / 12.7 s without it, 7.9 / 12.4 s with it; measured)."""
    alone = [j.arrival + p for j, p in zip(instance.jobs, solo, strict=True)]
    found: dict[tuple[int, ...], float] = {}
    for block in candidates:
        if overload(instance, block, solo) <= 0:
            continue
        if time.perf_counter() > deadline:
            return found, False
        inner = inner_table(block, found, alone) if len(block) > 2 else None
        value = solve_block(replace(instance, jobs=tuple(instance.jobs[j] for j in block)), deadline, inner)
        if value > sum(alone[j] for j in block) + GAIN_TOL:
            found[block] = value
    return found, True


def inner_table(block: Sequence[int], found: Mapping[tuple[int, ...], float], alone: Sequence[float]) -> SubsetBound:
    """The table of ``block``'s sub-instance (job i: the block's i-th) from the optima ``found``
    of its proper sub-blocks (keyed by the instance's job indices, sorted): the subset bound
    of the sub-instance, valid by the module docstring's argument there; ``alone``: each of
    the instance's jobs' a_j + P_j."""
    blocks = {}
    for k in range(2, len(block)):
        for sub in itertools.combinations(range(len(block)), k):
            value = found.get(tuple(block[i] for i in sub))
            if value is not None:
                blocks[mask_of(sub)] = value
    best, choice = _partitions([alone[j] for j in block], blocks)
    return SubsetBound(len(block) - 1, blocks, best, True, choice)


def _partitions(alone: Sequence[float], blocks: dict[int, float]) -> tuple[list[float], list[int]]:
    """best[mask] for every mask, the lowest job alone or in one of its blocks plus the best of
    the rest, and that block (choice[mask])."""
    by_low: list[list[tuple[int, float]]] = [[(1 << j, a)] for j, a in enumerate(alone)]
    for block, value in blocks.items():
        by_low[(block & -block).bit_length() - 1].append((block, value))
    best, choice = [0.0] * (1 << len(alone)), [0] * (1 << len(alone))
    for mask in range(1, len(best)):
        low = (mask & -mask).bit_length() - 1
        best[mask], choice[mask] = max(
            (value + best[mask ^ block], block) for block, value in by_low[low] if block & mask == block
        )
    return best, choice
