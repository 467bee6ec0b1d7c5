"""The incremental and array forms behind the sharing policies' speed equal the plain
per-item forms they replaced: Theorem 1 and Algorithm 2 as arrays, co-location rates kept
up to date, the view's free and lone GPUs, Tiresias's greedy pick."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.heuristics.sharing.batch_scaling import SharingConfig, best_sharing, sharing_table
from packgap.heuristics.sharing.online import View, consolidated
from packgap.heuristics.sharing.pair import decide, decide_many
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
    share, t_share = decide_many(*(np.array(column) for column in zip(*pairs, strict=True)))
    for k, args in enumerate(pairs):
        d = decide(*args)
        assert (bool(share[k]), float(t_share[k])) == (d.share, d.t_share)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([0.0, 1.0, 1.5]), st.floats(4.0, 16.0))
def test_algorithm_2_table_is_the_printed_loop(seed: int, xi: float, memory: float) -> None:
    inst = generate(40, seed % 50, nodes=2, xi=xi, gpu_memory_gb=memory)
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


def rate(perf: Perf, placed: dict[str, tuple[tuple[int, ...], int]], job: str) -> float:
    gpus, b = placed[job]
    partners = [o for o, (gs, _) in placed.items() if o != job and set(gs) & set(gpus)]
    return 1.0 / (perf.t_iter(job, b) * max([1.0, *(perf.xi(job, o) for o in partners)]))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_co_location_rates_follow_every_start_and_stop(seed: int) -> None:
    inst = generate(30, seed % 20, nodes=1, gpus_per_node=6)
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
    inst = generate(40, seed % 20, nodes=3)
    view = View(inst, Perf(inst))
    rng = random.Random(seed)
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
        for count in range(len(free) + 1):
            assert view.free_consolidated(count) == consolidated(free, count, inst.cluster.gpus_per_node)
        holders = view.lone_holders()
        assert [len(g) for g in holders.gpus] == holders.count.tolist() and sum(holders.count) == len(lone)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 16), max_size=40), st.integers(0, 64))
def test_greedy_pick_is_the_walk_in_order(sizes: list[int], budget: int) -> None:
    taken, left = [], budget
    for k, size in enumerate(sizes):
        if size <= left:
            taken.append(k)
            left -= size
    assert greedy(np.array(sizes, dtype=np.int64), budget).tolist() == taken
