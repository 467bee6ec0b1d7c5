"""The online policies: valid schedules, their defining behaviour, Algorithm 2's fixes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.errors import UnknownNameError
from packgap.heuristics.sharing.batch_scaling import best_sharing
from packgap.heuristics.sharing.exclusive import fifo, sjf
from packgap.heuristics.sharing.online import consolidated
from packgap.heuristics.sharing.sjf_bsbf import ORDERS, sjf_bsbf
from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
from packgap.heuristics.sharing.tiresias import tiresias
from packgap.instances.sharing.generator import generate
from packgap.sharing import FAMILY, Perf, SharingInstance, SharingSolution
from tests.sharing.helpers import tiny

POLICIES: dict[str, Callable[[SharingInstance], SharingSolution]] = {
    "fifo": fifo,
    "sjf": sjf,
    "tiresias": tiresias,
    "sjf-ffs": sjf_ffs,
    "sjf-bsbf": sjf_bsbf,
}


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.0, 1.0, 1.3, 2.0]))
def test_every_policy_gives_a_valid_schedule(seed: int, xi: float) -> None:
    inst = generate(40, seed, nodes=4, hours=2.0, xi=xi, preemption_overhead_s=30.0, workload="v1")
    for name, policy in POLICIES.items():
        sol = policy(inst)
        FAMILY.validate(inst, sol)
        metrics = FAMILY.evaluate(inst, sol).metrics
        if name in ("fifo", "sjf", "tiresias"):
            assert metrics["shared_jobs"] == 0, name
        if name != "tiresias":
            assert metrics["preemptions"] == 0, name


def test_fifo_blocks_behind_the_head_and_sjf_does_not() -> None:
    # j0 holds both GPUs; j1 needs 2, j2 needs 1 and arrives last but is shortest.
    inst = tiny([(0.0, 1, 100), (1.0, 2, 10), (2.0, 1, 5)], gpus=2)
    starts_fifo = {j.id: j.start for j in fifo(inst).jobs}
    starts_sjf = {j.id: j.start for j in sjf(inst).jobs}
    assert starts_fifo["j2"] == 110.0
    assert starts_sjf["j2"] == 2.0


def test_sjf_bsbf_shares_only_when_theorem_1_says_so() -> None:
    # A long job holds the only GPU; a short one arrives. Low xi: share; high xi: wait.
    low = sjf_bsbf(tiny([(0.0, 1, 1000), (10.0, 1, 50)], gpus=1, xi=1.1))
    high = sjf_bsbf(tiny([(0.0, 1, 60), (10.0, 1, 50)], gpus=1, xi=3.0))
    assert low.jobs[1].start == 10.0 and low.jobs[1].co_runner == "j0"
    assert high.jobs[1].start == pytest.approx(60.0) and high.jobs[1].co_runner is None
    ffs = sjf_ffs(tiny([(0.0, 1, 60), (10.0, 1, 50)], gpus=1, xi=3.0))
    assert ffs.jobs[1].start == 10.0


def test_sjf_bsbf_without_share_flag_takes_the_pair_theorem_1_declines() -> None:
    relaxed = sjf_bsbf(tiny([(0.0, 1, 60), (10.0, 1, 50)], gpus=1, xi=3.0), share_flag=False)
    assert relaxed.jobs[1].start == 10.0 and relaxed.jobs[1].co_runner == "j0"


def test_queue_order_readings_of_algorithm_1() -> None:
    # j0 holds both GPUs; then j1 (2 GPUs, 10 s) and j2 (1 GPU, 50 s) wait. xi = 10: no sharing.
    inst = tiny([(0.0, 2, 100), (1.0, 2, 10), (2.0, 1, 50)], gpus=2, xi=10.0)
    starts = {o: {j.id: j.start for j in sjf_bsbf(inst, order=o).jobs} for o in ORDERS}
    assert (starts["L_k"]["j1"], starts["L_k"]["j2"]) == (100.0, 110.0)
    assert (starts["GPU-time"]["j1"], starts["GPU-time"]["j2"]) == (100.0, 110.0)
    assert (starts["GPUs"]["j2"], starts["GPUs"]["j1"]) == (100.0, 150.0)
    with pytest.raises(UnknownNameError, match="GPUs"):
        sjf_bsbf(inst, order="arrival")


def test_without_accumulation_a_job_shares_only_at_its_solo_sub_batch() -> None:
    # Beside j0's 1.4 GB worker only b = 2 of j1 fits (1.2 GB of 2.6): sharing needs accumulation.
    inst = tiny([(0.0, 1, 1000), (10.0, 1, 50)], gpus=1, xi=1.1, memory=2.6)
    shared = sjf_bsbf(inst).jobs[1]
    alone = sjf_bsbf(inst, accumulate=False).jobs[1]
    assert (shared.start, shared.batch, shared.co_runner) == (10.0, 2, "j0")
    assert (alone.start, alone.batch, alone.co_runner) == (1000.0, 4, None)


def test_tiresias_preempts_for_a_fresh_job() -> None:
    inst = tiny([(0.0, 1, 5000), (4000.0, 1, 10)], gpus=1)
    sol = tiresias(inst, thresholds=(3250.0,))
    FAMILY.validate(inst, sol)
    assert len(sol.jobs[0].segments) == 2
    assert sol.jobs[1].start == 4000.0


def test_algorithm_2_tries_b_1_and_checks_memory() -> None:
    # Memory 10 GB; running worker 1 + 0.1 x 4 = 1.4 GB; the new job's worker is 1 + 5 b GB:
    # only b = 1, which the printed loop never tries, fits beside it.
    inst = tiny([(0.0, 1, 1000), (0.0, 1, 10)], gpus=1, models=2)
    inst = replace(inst, models={**inst.models, "m1": replace(inst.models["m1"], mem_per_sample_gb=5.0)})
    perf = Perf(inst)
    config = best_sharing(perf, "j0", 4, 1000.0, "j1")
    assert (config.batch, config.share) == (1, True)
    assert perf.memory("j1", 2) > 10.0 - perf.memory("j0", 4) >= perf.memory("j1", 1)


def test_consolidated_prefers_one_node_best_fit() -> None:
    free = [0, 1, 4, 5, 6, 7, 8]
    assert consolidated(free, 2, 4) == [0, 1]
    assert consolidated(free, 4, 4) == [4, 5, 6, 7]
    assert consolidated(free, 6, 4) == [4, 5, 6, 7, 0, 1]
