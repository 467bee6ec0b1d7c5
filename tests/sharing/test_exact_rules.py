"""The branch and bound's pruning rules against the search without them (issue 9, item 4)."""

from __future__ import annotations

import math
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.instances.sharing.generator import generate
from packgap.models.sharing import branch_bound
from packgap.models.sharing.branch_bound import Search, solve, subset_table
from packgap.models.sharing.dominance import Rules, left_shift_dominated
from packgap.models.sharing.node_bound import Estimate, NodeBound, Running
from packgap.sharing import FAMILY, JobSchedule, ModelProfile, Segment, SharingInstance, SharingSolution
from packgap.sharing.perf import steps
from packgap.sharing.progress import replay
from tests.sharing.helpers import tiny

OFF = Rules(
    node_bound=False, left_shift=False, start_order=False, batch_dominance=False, local_search=False, subsets=False
)
RULES = (
    Rules(),
    Rules(node_bound=False),
    Rules(left_shift=False),
    Rules(start_order=False),
    Rules(batch_dominance=False),
    Rules(local_search=False),
    Rules(subsets=False),
)


@st.composite
def instances(draw: st.DrawFn) -> SharingInstance:
    """3-5 jobs of 1-3 GPUs on 2-4 GPUs, two models with their own xi, memory that forces a
    smaller sub-batch beside a partner (2.6 GB) or not, C = 2 or 3."""
    n = draw(st.integers(3, 5))
    gpus = draw(st.integers(2, 4))
    jobs = [
        (
            float(draw(st.sampled_from([0, 0, 3, 5, 12, 20]))),
            draw(st.integers(1, min(3, gpus))),
            draw(st.integers(4, 40)),
        )
        for _ in range(n)
    ]
    xi = st.sampled_from([1.1, 1.5, 2.0, 3.0])
    pairs = {(a, b): draw(xi) for a in ("m0", "m1") for b in ("m0", "m1")}
    inst = tiny(jobs, gpus=gpus, memory=draw(st.sampled_from([2.6, 10.0])), models=2, pairs=pairs)
    return replace(inst, cluster=replace(inst.cluster, max_jobs_per_gpu=draw(st.sampled_from([2, 2, 3]))))


@settings(max_examples=25, deadline=None)
@given(instances(), st.booleans())
def test_every_rule_keeps_the_optimum(inst: SharingInstance, every_batch: bool) -> None:
    reference = solve(inst, None, time_limit=30, every_batch=every_batch, rules=OFF)
    assert reference.proven
    for rules in RULES:
        out = solve(inst, None, time_limit=30, every_batch=every_batch, rules=rules)
        assert out.proven
        assert out.sum_completion == pytest.approx(reference.sum_completion, rel=1e-9), rules
        assert out.lower_bound == out.sum_completion
        FAMILY.validate(inst, out.solution)
        assert out.root_bound <= out.sum_completion * (1 + 1e-9)
    # These instances are proven within PROBE_NODES nodes, before the table: build it at the root.
    with mock.patch.object(branch_bound, "PROBE_NODES", 1):
        out = solve(inst, None, time_limit=30, every_batch=every_batch)
    assert out.proven and out.sum_completion == pytest.approx(reference.sum_completion, rel=1e-9)


def test_the_table_is_built_only_once_the_search_has_run_its_probe() -> None:
    """A search proven within PROBE_NODES nodes never pays for the subset bound's table; one
    that runs past them reads it from then on (and its root bound with it)."""
    inst = generate(6, 4, nodes=4, hours=0.5, workload="physical")
    for probe, built in ((10**9, False), (1, True)):
        with mock.patch.object(branch_bound, "PROBE_NODES", probe):
            search = Search(inst, math.inf, 10**9, True, Rules())
            search.search(0.0, 0.0, {}, list(range(6)), [0.0] * inst.cluster.gpus, [], None)
            assert (search.node_bound.subsets is not None) is built and not search.stopped
            out = solve(inst, None, time_limit=None)
        assert out.proven
    assert out.root_bound > solve(inst, None, time_limit=None, rules=Rules(subsets=False)).root_bound + 100


class _Everything(Search):
    """Visits every event-driven schedule (no incumbent, rules off) up to ``leaves`` of them
    and checks, at each, every ancestor node's bounds against its completion times (and the
    earliest starts of the jobs waiting there against their starts): the node bound, each
    job's, and the parent's quick bound of a start (:meth:`NodeBound.start`), all with the
    blocks of :func:`subset_table` (item 4)."""

    def __init__(self, inst: SharingInstance, leaves: int) -> None:
        super().__init__(inst, math.inf, 10**9, False, OFF)
        self.strong = NodeBound(inst, self.perf, self.solo, subsets=subset_table(inst, math.inf))
        self.path: list[tuple[Estimate, list[list[int]], dict[int, float], list[float], int]] = []
        self.leaves = leaves

    def search(
        self, now: float, done: float, running: Running, pending: list[int], free: list[float], starts, last
    ) -> None:  # type: ignore[no-untyped-def]
        if self.leaves == 0:
            return
        holders: list[list[int]] = [[] for _ in free]
        for j, (gpus, _, _) in running.items():
            for g in gpus:
                holders[g].append(j)
        node = self.strong.estimate(now, running, pending, holders)
        bounds = [done + node.value]
        if self.path and len(starts) == self.path[-1][4] + 1:
            s, parent, on = starts[-1], self.path[-1][0], self.path[-1][1]
            partners = {h for g in s.gpus for h in on[g]}
            bounds.append(done + self.strong.start(parent, s.job, now, partners, s.batch))
        self.path.append((node, holders, {j: node.release[j] for j in pending}, bounds, len(starts)))
        if not running and not pending:
            self.check(starts, done)
        super().search(now, done, running, pending, free, starts, last)
        self.best = math.inf
        self.path.pop()

    def check(self, starts, total: float) -> None:  # type: ignore[no-untyped-def]
        self.leaves -= 1
        first = {s.job: s.time for s in starts}
        draft = SharingSolution(
            tuple(
                JobSchedule(j.id, s.batch, steps(j.batch, s.batch), (Segment(s.time, s.gpus),), 0.0)
                for s in starts
                for j in (self.inst.jobs[s.job],)
            )
        )
        finish = {self.ids.index(jid): r.finish for jid, r in replay(self.inst, draft).run.records.items()}
        for node, _, release, bounds, _ in self.path:
            assert max(bounds) <= total * (1 + 1e-9), bounds
            for j, c in node.completion.items():
                assert c <= finish[j] * (1 + 1e-9) + 1e-6, (j, c, finish[j])
            for j, t in release.items():
                assert t <= first[j] + 1e-6, (j, t, first[j])


@settings(max_examples=20, deadline=None)
@given(instances())
def test_node_bounds_hold_on_every_schedule_below_the_node(inst: SharingInstance) -> None:
    """Each job's earliest start and completion (item 1) and the node bound, at every node,
    against every event-driven schedule through it."""
    search = _Everything(inst, leaves=150)
    search.search(0.0, 0.0, {}, list(range(len(inst.jobs))), [0.0] * inst.cluster.gpus, [], None)
    assert search.leaves < 150


def test_node_bound_charges_a_waiting_job_its_blocker() -> None:
    """One GPU held by a 10 s job, C = 1: the second job ends no earlier than 10 + 5; without
    the running jobs' view, pooled SRPT lets it go first (5 + 15)."""
    inst = tiny([(0.0, 1, 10), (0.0, 1, 5)], gpus=1)
    inst = replace(inst, cluster=replace(inst.cluster, max_jobs_per_gpu=1))
    search = Search(inst, math.inf, 10**9, False, Rules())
    assert search.node_bound(0.0, {0: ((0,), 4, 10.0)}, [1], [[0]]) == pytest.approx(10 + 15)
    weak = Search(inst, math.inf, 10**9, False, OFF)
    assert weak.node_bound(0.0, {0: ((0,), 4, 10.0)}, [1], [[0]]) == pytest.approx(5 + 15)


@pytest.mark.parametrize(
    ("arrival", "gpus", "now", "free", "cut"),
    [
        (0.0, 1, 10.0, [0.0], True),  # waited on an idle GPU since 0
        (0.0, 1, 10.0, [10.0], False),  # the GPU was freed just now
        (10.0, 1, 10.0, [0.0], False),  # arrived just now
        (5.0, 2, 10.0, [0.0, 7.0], True),  # both idle since 7, after the arrival
        (5.0, 2, 10.0, [0.0], False),  # not enough idle GPUs
    ],
)
def test_left_shift_rule(arrival: float, gpus: int, now: float, free: list[float], cut: bool) -> None:
    assert left_shift_dominated(arrival, gpus, now, free) is cut


def test_stopped_search_reports_a_valid_lower_bound() -> None:
    inst = generate(6, 4, nodes=4, hours=0.5, workload="physical")
    optimum = solve(inst, None, time_limit=60)
    assert optimum.proven
    stopped = solve(inst, None, time_limit=60, max_nodes=300)
    assert not stopped.proven
    assert stopped.root_bound <= stopped.lower_bound <= optimum.sum_completion * (1 + 1e-9)
    assert optimum.sum_completion <= stopped.sum_completion * (1 + 1e-9)


def test_start_order_is_kept_where_memory_makes_it_matter() -> None:
    """Two jobs at 0 on one 2.6 GB GPU: the second to start fits only sub-batch 2 (eq. 7:
    1.1 s per iteration instead of 1.0). Sharing with no interference is best with the long
    job first at the full sub-batch: C = 40 and 4 x 1.1, although its index is larger."""
    inst = tiny([(0.0, 1, 4), (0.0, 1, 40)], gpus=1, memory=2.6, xi=1.0)
    inst = replace(inst, models={"m0": ModelProfile("m0", 0.1, 0.225, 0.0, 0.0, 0.0, 1.0, 1.0, 0.1)})
    for rules in (Rules(), OFF):
        assert solve(inst, None, time_limit=10, rules=rules).sum_completion == pytest.approx(40 + 4.4)


def test_a_smaller_sub_batch_that_makes_room_is_kept() -> None:
    """One 2.6 GB GPU, no interference: A (10 iterations, at 0) at sub-batch 2 leaves room
    for B (40 iterations, at 1) at its full sub-batch: 11 + 41 = 52. With the largest
    sub-batch that fits at each start, the best is A waiting for B: 12 + 41 = 53."""
    inst = tiny([(0.0, 1, 10), (1.0, 1, 40)], gpus=1, memory=2.6, xi=1.0)
    inst = replace(inst, models={"m0": ModelProfile("m0", 0.1, 0.225, 0.0, 0.0, 0.0, 1.0, 1.0, 0.1)})
    assert solve(inst, None, time_limit=10, every_batch=False).sum_completion == pytest.approx(53.0)
    for rules in (Rules(), OFF):
        assert solve(inst, None, time_limit=10, every_batch=True, rules=rules).sum_completion == pytest.approx(52.0)


def test_moves_stop_at_the_deadline_and_are_not_cached_cut_short() -> None:
    """Allocations without a fitting sub-batch yield no move, so a search that checked the clock
    only per move ran 15-18 s under a 5 s limit (480 jobs on 64 GPUs). Past the deadline and
    its grace the enumeration ends at once, and the cut list is not cached as complete."""
    inst = tiny([(0.0, 2, 10), (0.0, 1, 5)], gpus=4)
    on_time = Search(inst, math.inf, 10**9, True, Rules())
    every = list(on_time.moves({(): 4}, {}, 0))
    assert every and len(on_time.moves.cache) == 1
    late = Search(inst, -math.inf, 10**9, True, Rules())  # no grace: 5 % of no time left
    late.late()  # the first look at the clock starts the (empty) grace
    assert list(late.moves({(): 4}, {}, 0)) == [] and late.stopped and not late.moves.cache
