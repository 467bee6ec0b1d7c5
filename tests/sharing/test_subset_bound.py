"""The subset bound (issue 35): each block's optimum below the optimum of the jobs it holds,
the best partition (and its blocks raised to the jobs' own bounds) against a brute force over
every partition, and the README instance where a block of three jobs closes the root gap."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.analysis.sharing.exact_scaling import instance as readme
from packgap.models.sharing import subset_bound
from packgap.models.sharing.bound import min_solo_time
from packgap.models.sharing.branch_bound import solve, subset_table, window_sums
from packgap.models.sharing.dominance import Rules
from packgap.models.sharing.node_bound import NodeBound, root_bound
from packgap.sharing import FAMILY, Perf, SharingInstance
from tests.sharing.helpers import tiny
from tests.sharing.test_exact_rules import _Everything, instances


def _partitions(items: list[int]) -> list[list[list[int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for tail in _partitions(rest):
        out.append([[first], *tail])
        for k in range(len(tail)):
            out.append([*tail[:k], [first, *tail[k]], *tail[k + 1 :]])
    return out


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_the_best_partition_is_the_best_over_every_partition(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 6))
    alone = data.draw(st.lists(st.floats(0, 100), min_size=n, max_size=n))
    masks = st.integers(1, (1 << n) - 1).filter(lambda m: m.bit_count() >= 2)
    blocks = data.draw(st.dictionaries(masks, st.floats(0, 300), max_size=12))
    best, choice = subset_bound._partitions(alone, blocks)
    own = dict(enumerate(data.draw(st.lists(st.floats(0, 100), min_size=n, max_size=n))))
    table = subset_bound.SubsetBound(4, blocks, best, True, choice)
    for mask in range(1 << n):
        members = [j for j in range(n) if mask >> j & 1]
        brute = max(
            sum(blocks.get(subset_bound.mask_of(b), -math.inf) if len(b) > 1 else alone[b[0]] for b in p)
            for p in _partitions(members)
        )
        assert best[mask] == pytest.approx(brute)
        if mask:
            block = choice[mask]
            assert block & mask == block and block & mask & -mask
            assert best[mask] == pytest.approx(blocks.get(block, alone[block.bit_length() - 1]) + best[mask ^ block])
        # Each block of the best partition raised to its jobs' own bounds: never below either sum.
        raised = table.refined(mask, own)
        assert raised >= best[mask] - 1e-9 and raised >= sum(own[j] for j in members) - 1e-9


def _alone(inst: SharingInstance) -> float:
    """The jobs' solo bounds summed: sum of a_j + P_j."""
    return sum(j.arrival + min_solo_time(inst, k) for k, j in enumerate(inst.jobs))


def _optimum(inst: SharingInstance, block: tuple[int, ...]) -> float:
    out = solve(replace(inst, jobs=tuple(inst.jobs[j] for j in block)), None, time_limit=None)
    assert out.proven
    return out.sum_completion


@settings(max_examples=15, deadline=None)
@given(instances())
def test_every_set_is_bounded_below_its_own_optimum(inst: SharingInstance) -> None:
    """best[mask] <= the optimum of the sub-instance of ``mask``'s jobs, for every mask (the
    whole instance included): blocks of two jobs and more, dropped jobs never slow the rest."""
    table = subset_table(inst, math.inf, size=3)
    assert table.complete and table.size == min(3, len(inst.jobs) - 1)
    n = len(inst.jobs)
    for mask in range(1, 1 << n):
        block = tuple(j for j in range(n) if mask >> j & 1)
        assert table.best[mask] <= _optimum(inst, block) * (1 + 1e-9), block
    assert root_bound(inst, table) <= _optimum(inst, tuple(range(n))) * (1 + 1e-9)


@settings(max_examples=15, deadline=None)
@given(instances())
def test_a_block_that_never_asks_for_more_gpus_than_there_are_gains_nothing(inst: SharingInstance) -> None:
    solo = [min_solo_time(inst, j) for j in range(len(inst.jobs))]
    everyone = tuple(range(len(inst.jobs)))
    if subset_bound.overload(inst, everyone, solo) <= 0:
        assert _optimum(inst, everyone) == pytest.approx(_alone(inst))


def test_overload_is_the_gpu_seconds_asked_beyond_the_cluster() -> None:
    """Two 2-GPU jobs of 10 and 5 s at 0 on 2 GPUs ask for 2 GPUs too many for 5 s; a third that
    arrives when the first two are done asks for nothing more."""
    inst = tiny([(0.0, 2, 10), (0.0, 2, 5), (10.0, 2, 7)], gpus=2)
    solo = [min_solo_time(inst, j) for j in range(3)]
    assert solo[:2] == pytest.approx([10.0, 5.0])
    assert subset_bound.overload(inst, (0, 1), solo) == pytest.approx(10.0)
    assert subset_bound.overload(inst, (0, 2), solo) == 0.0


def test_the_table_searches_the_most_overloaded_blocks_of_each_size_first() -> None:
    """So that a table cut short by its deadline holds the blocks that gain most."""
    inst = readme(8, 2)
    solo = [min_solo_time(inst, j) for j in range(8)]
    asked: list[tuple[int, ...]] = []

    def record(_: SharingInstance, candidates: Iterable[tuple[int, ...]], *rest: object) -> tuple[dict, bool]:
        asked.extend(candidates)
        return {}, True

    with mock.patch.object(subset_bound, "block_optima", record):
        subset_bound.build(inst, solo, lambda *args: 0.0, 4, math.inf)
    assert [len(b) for b in asked] == sorted(len(b) for b in asked)
    assert len(asked) == sum(math.comb(8, k) for k in (2, 3, 4))
    for k in (2, 3, 4):
        loads = [subset_bound.overload(inst, b, solo) for b in asked if len(b) == k]
        assert loads == sorted(loads, reverse=True) and loads[0] > loads[-1]


def test_three_jobs_that_each_wait_for_a_gang_job_or_slow_it_down() -> None:
    """README 6 jobs, seed 5 (measured): job 2 (8 GPUs, 1,395 s) runs when job 3 (16 GPUs, at
    831 s) and job 5 (12 GPUs, at 1,357 s) arrive; each must share with it or wait. A pair
    prices one of the two choices only (root bound 12.4 % below the optimum); the block of
    all three prices both, and the root bound with the table is the optimum."""
    inst = readme(6, 5)
    optimum = solve(inst, None, time_limit=None)
    table = subset_table(inst, math.inf)
    assert optimum.proven and table.complete
    assert subset_bound.mask_of((2, 3, 5)) in table.blocks
    assert root_bound(inst) < 0.95 * optimum.sum_completion
    assert root_bound(inst, table) == pytest.approx(optimum.sum_completion, rel=1e-9)


def test_a_block_may_hold_jobs_that_have_started() -> None:
    """Jobs 0 (1 GPU) and 1 (2 GPUs) start at 0 and share GPU 0, job 2 arrives at 5: item 1
    finishes them at 10.44 and 11.22 s, but their block's optimum is 22 s, so the node bound
    with blocks of started and waiting jobs together rises 1/3 s above the running jobs'
    finishes plus the waiting jobs' blocks; and every node bound still holds on every schedule
    below (all of them, walked)."""
    inst = tiny([(0.0, 1, 8), (0.0, 2, 7), (5.0, 2, 12)], gpus=2, xi=1.5)
    table = subset_table(inst, math.inf)
    solo = [min_solo_time(inst, i) for i in range(3)]
    running = {1: ((0, 1), 4, 7.0), 0: ((0,), 4, 8.0)}
    node = NodeBound(inst, Perf(inst), solo, subsets=table).estimate(0.0, running, [2], [[0, 1], [1]])
    assert table.blocks[0b011] == pytest.approx(22.0)
    apart = node.completion[0] + node.completion[1] + table.refined(0b100, node.completion)
    assert node.value == pytest.approx(22.0 + node.completion[2]) and node.value > apart + 0.3
    walk = _Everything(inst, leaves=10**6)
    walk.search(0.0, 0.0, {}, [0, 1, 2], [0.0, 0.0], [], None)
    assert walk.leaves < 10**6


def test_a_table_past_its_deadline_holds_the_solo_bounds_only() -> None:
    inst = tiny([(0.0, 2, 10), (0.0, 2, 5), (1.0, 2, 7)], gpus=2)
    table = subset_table(inst, time.perf_counter() - 1)
    assert not table.complete and not table.blocks
    assert table.best[0b111] == pytest.approx(_alone(inst))
    full = subset_table(inst, math.inf)
    assert full.complete and full.best[0b111] > table.best[0b111]


def test_more_jobs_than_the_table_takes_is_refused() -> None:
    inst = tiny([(float(k), 1, 5) for k in range(subset_bound.MAX_JOBS + 1)], gpus=2)
    with pytest.raises(ValueError, match=f"at most {subset_bound.MAX_JOBS} jobs"):
        subset_table(inst, math.inf)


@pytest.mark.parametrize(("size", "width"), [(2, 2), (3, 4), (4, 8)])
def test_windowed_blocks_are_the_tables_blocks_within_the_window(size: int, width: int) -> None:
    """README 8 jobs, seed 2: every block of the full table whose jobs lie within ``width``
    consecutive arrivals, with the same optimum, and no other."""
    inst = readme(8, 2)
    table = subset_table(inst, math.inf, size=size)
    position = {j: k for k, j in enumerate(sorted(range(8), key=lambda j: inst.jobs[j].arrival))}
    near = {
        mask: value
        for mask, value in table.blocks.items()
        if max(position[j] for j in subset_bound.members(mask)) - min(position[j] for j in subset_bound.members(mask))
        < width
    }
    found = {subset_bound.mask_of(block): value for block, value in window_sums(inst, math.inf, size, width)}
    assert near and found == pytest.approx(near, rel=1e-12)
    if width < 8:
        assert len(found) < len(table.blocks)


def test_a_blocks_inner_table_is_the_table_of_its_sub_instance() -> None:
    """README 8 jobs, seed 2: the table each block's search gets from its sub-blocks found so
    far (:func:`subset_bound.inner_table`) has the blocks and partitions of the table built on
    the block's sub-instance itself."""
    inst = readme(8, 2)
    table = subset_table(inst, math.inf, size=4)
    found = {tuple(subset_bound.members(mask)): value for mask, value in table.blocks.items()}
    alone = [j.arrival + min_solo_time(inst, k) for k, j in enumerate(inst.jobs)]
    fours = [block for block in found if len(block) == 4]
    assert fours
    for block in fours:
        inner = subset_bound.inner_table(block, found, alone)
        direct = subset_table(replace(inst, jobs=tuple(inst.jobs[j] for j in block)), math.inf, size=3)
        assert inner.blocks == pytest.approx(direct.blocks, rel=1e-12)
        assert inner.best == pytest.approx(direct.best, rel=1e-12)


@settings(max_examples=15, deadline=None)
@given(instances())
def test_a_search_given_the_table_from_its_first_node_proves_the_same_optimum(inst: SharingInstance) -> None:
    table = subset_table(inst, math.inf, size=3)
    given_table = solve(inst, None, time_limit=None, subsets=table)
    assert given_table.proven
    assert given_table.sum_completion == pytest.approx(_optimum(inst, tuple(range(len(inst.jobs)))), rel=1e-9)


def test_a_search_without_local_search_stopped_at_once_still_returns_a_schedule() -> None:
    """The block searches run without the local search and are cut by the table's deadline; one
    stopped before its first leaf returns the local search's seed decode (README 10 jobs, seed
    10, as the certified class floor's 3 s stop hit it)."""
    inst = readme(10, 10)
    out = solve(inst, None, time_limit=0.0, rules=Rules(local_search=False))
    value = FAMILY.evaluate(inst, out.solution).objective * len(inst.jobs) + sum(j.arrival for j in inst.jobs)
    assert not out.proven and out.lower_bound <= out.sum_completion
    assert value == pytest.approx(out.sum_completion, rel=1e-9)
