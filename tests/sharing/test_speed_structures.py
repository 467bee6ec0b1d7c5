"""The incremental and array forms behind the sharing policies' speed equal the plain
per-item forms they replaced: Theorem 1 and Algorithm 2 as arrays, settled pairs and the
array walk of Algorithm 1, co-location rates kept up to date, the view's free and lone
GPUs and queue, Tiresias's greedy pick."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.heuristics.sharing.batch_scaling import (
    TEXT,
    Rule,
    SharingConfig,
    best_sharing,
    pair_table,
    sharing_table,
)
from packgap.heuristics.sharing.exclusive import solo_length
from packgap.heuristics.sharing.online import OnlinePolicy, View, consolidated, run_online
from packgap.heuristics.sharing.pair import decide, decide_many
from packgap.heuristics.sharing.sjf_bsbf import in_order, place_job
from packgap.heuristics.sharing.tiresias import greedy
from packgap.instances.sharing.generator import generate
from packgap.sharing import Perf
from packgap.sharing.perf import ladder
from packgap.sharing.progress import CoLocation


def algorithm_2(perf: Perf, running: str, running_batch: int, remaining_solo: float, new: str) -> SharingConfig:
    """Algorithm 2 one sub-batch at a time, as section V-B3 prints it (with its fixes)."""
    room = perf.instance.cluster.gpu_memory_gb - perf.memory(running, running_batch)
    best = SharingConfig(False, perf.jobs[new].batch, math.inf)
    for b in ladder(perf.jobs[new].batch):
        if perf.memory(new, b) > room + 1e-9:
            continue
        d = decide(remaining_solo, perf.solo_time(new, b), perf.xi(running, new), perf.xi(new, running))
        if d.t_share <= best.t:
            best = SharingConfig(d.share, b, d.t_share)
    return best


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(*[st.floats(0, 1e5, allow_nan=False)] * 2, *[st.floats(1, 3)] * 2), min_size=1))
def test_theorem_1_as_arrays_is_the_scalar_form(pairs: list[tuple[float, float, float, float]]) -> None:
    remaining, new, xi_running, xi_new = (np.array(column) for column in zip(*pairs, strict=True))
    share, t_share = decide_many(remaining, new, xi_running, xi_new)
    for k, args in enumerate(pairs):
        d = decide(*args)
        assert (bool(share[k]), float(t_share[k])) == (d.share, d.t_share)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([0.0, 1.0, 1.5]), st.floats(4.0, 16.0))
def test_algorithm_2_table_is_the_printed_loop(seed: int, xi: float, memory: float) -> None:
    inst = generate(40, seed % 50, nodes=2, xi=xi, gpu_memory_gb=memory, workload="v1")
    perf = Perf(inst)
    rng = random.Random(seed)
    ids = [j.id for j in inst.jobs]
    news, holders = rng.sample(ids, 6), rng.sample(ids, 5)
    batches = [rng.choice(ladder(perf.jobs[h].batch)) for h in holders]
    left = [rng.choice([0.0, rng.uniform(0, 50), rng.uniform(0, 1e5)]) for _ in holders]
    room = np.array([memory - perf.memory(h, b) for h, b in zip(holders, batches, strict=True)])
    models = np.array([perf.model_index[h] for h in holders])
    table = sharing_table(perf, news, np.array(left), room, models)
    for i, n in enumerate(news):
        for k, h in enumerate(holders):
            want = algorithm_2(perf, h, batches[k], left[k], n)
            assert (bool(table.share[i, k]), int(table.batch[i, k]), float(table.t[i, k])) == (
                want.share,
                want.batch,
                want.t,
            )
            assert best_sharing(perf, h, batches[k], left[k], n) == want


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([1.0, 1.3, 2.0, 4.0]), st.floats(4.0, 16.0))
def test_settled_pairs_stay_unshared_while_the_holder_runs(seed: int, xi: float, memory: float) -> None:
    inst = generate(60, seed % 50, nodes=2, xi=xi, gpu_memory_gb=memory, workload="v1")
    perf = Perf(inst)
    rng = np.random.default_rng(seed)
    pairs = 400
    news = rng.integers(0, len(inst.jobs), pairs)
    holders = rng.integers(0, len(inst.jobs), pairs)
    room = np.array([memory - perf.memory(inst.jobs[h].id, perf.solo_batch(inst.jobs[h])) for h in holders])
    left = rng.choice([1.0, 50.0, 1e4, 1e5], pairs) * rng.random(pairs)
    table = pair_table(perf, news, left, room, perf.model_rows[holders])
    settled = np.flatnonzero(table.settled)
    for shrink in (0.999999, 0.5, 1e-3, 1e-9, 0.0):
        later = pair_table(
            perf, news[settled], left[settled] * shrink, room[settled], perf.model_rows[holders[settled]]
        )
        assert not later.share.any()
    assert not (table.share & table.settled).any() and (~table.settled).any()
    # One xi for every pair: below 1.5 Theorem 1 always shares, so only memory settles a pair.
    assert table.settled.any() or xi < 1.5


def printed_loop(free_gpus_first: bool, rule: Rule = TEXT) -> OnlinePolicy:
    """Algorithm 1's loop one waiting job at a time, every one through Algorithm 2 afresh."""

    def policy(view: View) -> None:
        for job in list(view.queue()):
            if view.shareable() == 0:
                return
            if job.gpus <= view.shareable():
                place_job(view, job, free_gpus_first, rule=rule)

    return policy


#: The text's reading of Algorithm 2 and each other reading the crossover study runs.
RULES = [TEXT, Rule(accumulate=False), Rule(sign_test=True), Rule(share_flag=False)]


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([1.0, 1.2, 2.0]), st.booleans(), st.sampled_from(RULES))
def test_in_order_walk_is_the_printed_loop(seed: int, xi: float, free_gpus_first: bool, rule: Rule) -> None:
    """Settled pairs skipped (:class:`Settled`) change no schedule, under every reading."""
    inst = generate(90, seed % 50, nodes=3, hours=1.5, xi=xi, workload="v1")
    walk = run_online(inst, in_order(free_gpus_first, rule), priority=solo_length)
    assert walk == run_online(inst, printed_loop(free_gpus_first, rule), priority=solo_length)
    # The printed sign test (eq. 25) never shares at xi = 2: 2 xi_B + xi_A - 2 xi_A xi_B < 0.
    assert any(j.co_runner for j in walk.jobs) or (rule.sign_test and xi == 2.0)


def rate(perf: Perf, placed: dict[str, tuple[tuple[int, ...], int]], job: str) -> float:
    gpus, b = placed[job]
    partners = [o for o, (gs, _) in placed.items() if o != job and set(gs) & set(gpus)]
    return 1.0 / (perf.t_iter(job, b) * max([1.0, *(perf.xi(job, o) for o in partners)]))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_co_location_rates_follow_every_start_and_stop(seed: int) -> None:
    inst = generate(30, seed % 20, nodes=1, gpus_per_node=6, workload="v1")
    perf = Perf(inst)
    rng = random.Random(seed)
    tracker = CoLocation(perf)
    placed: dict[str, tuple[tuple[int, ...], int]] = {}
    engine_rates: dict[str, float] = {}
    for _ in range(12):
        for _ in range(rng.randint(1, 4)):
            job = rng.choice(inst.jobs)
            if job.id in placed and rng.random() < 0.6:
                finished = rng.random() < 0.5
                tracker.remove(job.id, finished)
                del placed[job.id]
                if finished:
                    engine_rates.pop(job.id, None)
            else:
                gpus = tuple(rng.sample(range(6), job.gpus if job.gpus <= 6 else 1))
                tracker.add(job.id, gpus, perf.solo_batch(job))
                placed[job.id] = (gpus, perf.solo_batch(job))
        rates, stopped = tracker.changes()
        for jid in stopped:
            del engine_rates[jid]
        engine_rates.update(rates)
        assert engine_rates == {jid: rate(perf, placed, jid) for jid in placed}


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6))
def test_view_keeps_free_and_lone_gpus_as_a_scan_finds_them(seed: int) -> None:
    inst = generate(40, seed % 20, nodes=3, workload="v1")
    view = View(inst, Perf(inst), priority=lambda v, j: -j.iterations)
    rng = random.Random(seed)
    row = {j.id: r for r, j in enumerate(inst.jobs)}
    for job in inst.jobs:
        view.arrive(job)
    for _ in range(40):
        job = rng.choice(inst.jobs)
        if job.id in view.running:
            view.stop(job.id) if rng.random() < 0.5 else view.release(job.id, finished=True)
        elif job.id in view.waiting:
            open_gpus = [g for g, h in enumerate(view.holders) if len(h) < 2]
            if len(open_gpus) >= job.gpus:
                view.start(job, rng.sample(open_gpus, job.gpus), view.perf.solo_batch(job))
        free = [g for g, h in enumerate(view.holders) if not h]
        lone = [g for g, h in enumerate(view.holders) if len(h) == 1]
        assert view.free_count == len(free) and view.lone_gpus() == lone
        assert view.shareable() == len(free) + len(lone)
        gpus, room = view.lone_room()
        memory = inst.cluster.gpu_memory_gb
        assert gpus.tolist() == lone
        assert room.tolist() == [
            memory - view.perf.memory(h[0], view.running[h[0]].batch) for h in map(view.holders.__getitem__, lone)
        ]
        for count in range(len(free) + 1):
            assert view.free_consolidated(count) == consolidated(free, count, inst.cluster.gpus_per_node)
        holders = view.lone_holders()
        alone: dict[str, list[int]] = {}
        for g in lone:
            alone.setdefault(view.holders[g][0], []).append(g)
        assert [inst.jobs[r].id for r in holders.rows] == list(alone)
        assert [holders.gpus(k) for k in range(len(holders.rows))] == list(alone.values())
        assert holders.count.tolist() == [len(gs) for gs in alone.values()]
        assert {inst.jobs[r].id: int(c) for r, c in enumerate(view.lone_count) if c} == {
            j: len(gs) for j, gs in alone.items()
        }
        assert view.queue_rows().tolist() == [row[j.id] for j in view.queue()]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 16), max_size=40), st.integers(0, 64))
def test_greedy_pick_is_the_walk_in_order(sizes: list[int], budget: int) -> None:
    taken, left = [], budget
    for k, size in enumerate(sizes):
        if size <= left:
            taken.append(k)
            left -= size
    assert greedy(np.array(sizes, dtype=np.int64), budget).tolist() == taken


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 50), st.floats(0.0, 90.0))
def test_least_memory_fits_exactly_where_some_ladder_sub_batch_does(seed: int, free_gb: float) -> None:
    """SJF-FFS's first-fit test (:meth:`Perf.least_memory`) against the ladder walk it replaced."""
    inst = generate(20, seed, nodes=2, workload="v1")
    perf = Perf(inst)
    for job in inst.jobs:
        for room in (free_gb, perf.least_memory(job), perf.least_memory(job) - 1e-9, perf.least_memory(job) - 2e-9):
            assert (perf.least_memory(job) <= room + 1e-9) == (perf.largest_fitting(job, room) is not None)
