"""Dominance rules of the sharing branch and bound (:mod:`packgap.models.sharing.branch_bound`).

Each rule cuts starts that some other schedule the search keeps does at least as well as;
each argument is in its docstring, and the tests compare each rule with the search
without it. All three rest on one monotonicity: a job's rate only grows when a partner
leaves (it is 1 / (t_iter xi), xi the largest ratio over its partners, eqs. 5-7), and no
start becomes infeasible when GPUs are freed earlier, so a change that lets no job finish
later and keeps every other start (time, GPUs, sub-batch) lets no completion grow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from packgap.sharing import Perf, SharingInstance
from packgap.sharing.progress import TIME_TOL


@dataclass(frozen=True)
class Rules:
    """Which pruning rules run: ``node_bound`` False bounds a node by solo times and pooled
    SRPT only (:mod:`packgap.models.sharing.bound` at the node); ``left_shift`` False keeps starts
    that :func:`left_shift_dominated` cuts; ``start_order`` False keeps those that
    :func:`start_order_cut` cuts; ``batch_dominance`` False tries every sub-batch that fits
    (:class:`BatchSignatures`) when ``every_batch`` is on; ``local_search`` False starts from
    the given incumbent alone, without :func:`packgap.models.sharing.incumbent.improve` (with
    none, from the decodes of its seed orders, no descent);
    ``subsets`` False bounds no node by blocks of jobs
    (:mod:`packgap.models.sharing.subset_bound`, item 4 of the node bound)."""

    node_bound: bool = True
    left_shift: bool = True
    start_order: bool = True
    batch_dominance: bool = True
    local_search: bool = True
    subsets: bool = True


#: Every rule on (the search's default).
ALL_RULES = Rules()


def left_shift_dominated(arrival: float, gpus: int, now: float, free_since: Sequence[float]) -> bool:
    """Whether starting a waiting job on empty GPUs only at ``now`` is dominated.

    ``free_since`` holds, for every GPU empty now, the time its last holder left. If
    ``gpus`` of them were empty since d = max(arrival, the gpus-th smallest of those
    times) < now, the job could have started at d on them: d is an event the search
    visited (an arrival, a finish or 0) with the job waiting, and those GPUs stayed empty
    until now. Moving the start there (and swapping the labels of those GPUs with the ones
    it took, all empty at ``now``) changes nobody's partners before ``now``; afterwards the
    job is the same run with less left, so it leaves its GPUs no later. A job's rate only
    grows when a partner leaves (it is 1 / (t_iter xi) with xi the largest ratio over its
    partners), and no start becomes infeasible when GPUs are freed earlier, so keeping every
    other start (time, GPUs, sub-batch) no completion grows: at the first instant some job
    had less progress than before, all jobs would have had at least as much progress until
    then, hence no more partners and no lower rate, a contradiction. The sub-batch is the
    same (empty GPUs at both times).

    So among optimal schedules, one with the least sum of start times is never cut: its
    shifted copy has no larger objective and a smaller sum of starts, and by the vertex
    argument of the module docstring an event-driven schedule at least as good in both
    exists, which the search holds up to relabelling.
    """
    if len(free_since) < gpus:
        return False
    return max(arrival, sorted(free_since)[gpus - 1]) < now - TIME_TOL


def start_order_cut(job: int, last: int | None, taken: Sequence[tuple[int, ...]]) -> bool:
    """Whether starting ``job`` on GPUs holding ``taken`` right after ``last`` started at the
    same instant is cut: ``job`` < ``last`` and none of those GPUs holds ``last``.

    Two starts at one instant on disjoint GPUs commute (each job's sub-batch and partners
    are the same in either order, and so is the state after both), so of two such starts
    in a row only the one with the smaller job index first is searched. Every sequence of
    starts at an instant can be sorted this way by swapping neighbours that commute (its
    least representative in the trace order), and that one breaks no other rule: the left
    shift reads the GPUs empty after the earlier starts, and it cuts a start only if the
    schedule itself, in any order, could start the job earlier. The transposition key holds
    ``last``, which the rule reads.
    """
    return last is not None and job < last and all(last not in holders for holders in taken)


class BatchSignatures:
    """Batch dominance (``every_batch``, C = 2): which fitting sub-batches of a job to try.

    A smaller sub-batch only slows its job (eq. 7 grows with the accumulation steps, which
    the ladder makes distinct) and leaves memory to a later partner, which with C = 2 can
    join only where the job is alone, beside its worker alone. Two sub-batches that leave
    every other job the same largest fitting sub-batch there (the signature) are alike for
    everyone else, so only the larger is searched: the schedule with the smaller one, run
    with the larger, keeps every start and sub-batch feasible and no completion later (the
    argument of :func:`left_shift_dominated`). Among optimal schedules with the least sum of
    starts, one with the fewest accumulation steps is never cut.
    """

    def __init__(self, instance: SharingInstance, perf: Perf) -> None:
        self.inst, self.perf = instance, perf
        self.known: dict[tuple[int, int], tuple[int | None, ...]] = {}

    def kept(self, job: int, fits: Sequence[int]) -> list[int]:
        """The sub-batches of ``fits`` (largest first) with a signature not seen before."""
        jid = self.inst.jobs[job].id
        out, seen = [], set()
        for b in fits:
            if (job, b) not in self.known:
                left = self.inst.cluster.gpu_memory_gb - self.perf.memory(jid, b)
                others = (self.perf.largest_fitting(other, left) for other in self.inst.jobs if other.id != jid)
                self.known[job, b] = tuple(others)
            if self.known[job, b] not in seen:
                seen.add(self.known[job, b])
                out.append(b)
        return out
