"""Muri as released (heuristics/packing/muri.py, interleave.muri_*): worked examples of its
iteration-time recurrence, weights, rounds, merge order and autopack; groups of up to four
through the family's timeline and validator."""

from __future__ import annotations

import pytest

from packgap.errors import PackgapError, ValidationError
from packgap.gpus import GpuType
from packgap.heuristics.packing.muri import MuriOptions, muri_groups, slower_than_alone, used_ratio
from packgap.packing import FAMILY, Job, PackingInstance, PackingSolution, PlacedGroup
from packgap.packing.interleave import StageProfile, muri_group_iteration, muri_iteration, muri_p_iteration
from packgap.packing.timeline import timeline

#: Muri's BERT on 8 GPUs (cluster_trace.csv: S 0.5, GPU 166, network 133 ms).
BERT = StageProfile(0.5, 166.0, 0.0, 133.0, measured=300.0)
VGG = StageProfile(82.0, 75.0, 0.0, 66.0, measured=214.0)


def _job(i: int, profile: StageProfile, iterations: int = 100, gpus: int = 8) -> Job:
    return Job(f"j{i}", 0.0, 1e9, gpus, iterations, "m", "before_forward", (profile,))


def _instance(jobs: list[Job], gpus: int, interleaving: str = "muri") -> PackingInstance:
    return PackingInstance("t", (GpuType("V100", gpus),), tuple(jobs), interleaving=interleaving)  # type: ignore[arg-type]


def test_four_slot_recurrence_by_hand() -> None:
    # Slot ends (module docstring): f1 = 133 (b's C), f2 = 0 + 0.5 (a's S from f0; nothing else
    # runs), f3 = max(0.5 + 166, 133 + 0.5), f4 = max(166.5 + 133, 166.5 + 166) = 332.5,
    # f5 = 332.5 + 133; f5 - f1 = f4 - f0 = 332.5 stops it. The pair formula gives 598.
    assert muri_iteration((BERT, BERT)) == 332.5
    assert muri_group_iteration((BERT, BERT)) == pytest.approx(332.5 * 1.33 / 1.015, rel=1e-15)
    assert muri_group_iteration((BERT,)) == pytest.approx(300 * 1.015, rel=1e-15)
    # multi_resource = 3 is Muri-P: slots max(S, C) + max(G, S) + max(C, G) = 133 + 166 + 166.
    assert muri_iteration((BERT, BERT), 3) == muri_p_iteration((BERT, BERT)) == 465.0


def test_used_ratio_is_per_iteration() -> None:
    pair = [_job(0, BERT), _job(1, VGG, iterations=7)]
    t = muri_group_iteration((BERT, VGG))
    assert used_ratio(pair, 0) == pytest.approx((299.5 + 223) / (4 * t), rel=1e-15)
    assert used_ratio(pair, 0) == used_ratio([_job(0, BERT, 1), _job(1, VGG, 10**6)], 0)


def test_rounds_merge_in_list_order_until_the_demand_fits() -> None:
    jobs = [_job(i, BERT if i % 2 else VGG) for i in range(8)]
    # The demand fits: one round runs, its pairs stay apart (each listed at its later job).
    assert sorted(muri_groups(_instance(jobs, 64), autopack=False)) == [(j.id,) for j in jobs]
    halves = muri_groups(_instance(jobs, 32), autopack=False)
    assert sorted(map(len, halves)) == [2, 2, 2, 2]
    quarters = muri_groups(_instance(jobs, 16), autopack=False)
    assert sorted(map(len, quarters)) == [4, 4]
    # 48 GPUs: the demand (64) fits after the first two merges of the list; the rest stay apart.
    partial = muri_groups(_instance(jobs, 48), autopack=False)
    assert sorted(map(len, partial)) == [1, 1, 1, 1, 2, 2]
    assert muri_groups(_instance(jobs, 16), options=MuriOptions(packing_num=2), autopack=False) == halves


@pytest.mark.parametrize(
    ("flags", "message"),
    [(MuriOptions(multi_resource=5), "multi_resource must be 3 or 4"), (MuriOptions(packing_num=5), "packing_num")],
)
def test_flags_outside_muris_code_are_refused(flags: MuriOptions, message: str) -> None:
    with pytest.raises(PackgapError, match=message):
        muri_groups(_instance([_job(0, BERT)], 8), options=flags)


def test_autopack_splits_a_group_slower_than_its_jobs_in_turn() -> None:
    # Stage times with a measured standalone time far below S + G + C: packing is slower.
    quick = StageProfile(100.0, 100.0, 0.0, 100.0, measured=50.0)
    pair = [_job(0, quick), _job(1, quick)]
    assert slower_than_alone(pair, 1) and not slower_than_alone(pair[:1], 1)
    assert muri_groups(_instance(pair, 8)) == (("j0",), ("j1",))
    assert muri_groups(_instance(pair, 8), autopack=False) == (("j0", "j1"),)


def test_groups_of_three_and_four_run_on_the_timeline() -> None:
    jobs = [_job(0, BERT, 10), _job(1, VGG, 20), _job(2, BERT, 30)]
    line = timeline(jobs, 0, "V100", "muri", 2.0)
    t3 = muri_group_iteration((BERT, VGG, BERT)) / 1000
    t2 = muri_group_iteration((VGG, BERT)) / 1000
    t1 = muri_group_iteration((BERT,)) / 1000
    assert line.completion == pytest.approx((10 * t3, 10 * t3 + 10 * t2, 10 * t3 + 10 * t2 + 10 * t1), rel=1e-12)
    four = _instance([*jobs, _job(3, VGG, 5)], 8)
    FAMILY.validate(four, _one_group(four))
    five = _instance([_job(i, BERT) for i in range(5)], 8)
    with pytest.raises(ValidationError, match="holds 5 jobs"):
        FAMILY.validate(five, _one_group(five))


def _one_group(instance: PackingInstance) -> PackingSolution:
    return PackingSolution((PlacedGroup(tuple(j.id for j in instance.jobs), "V100", tuple(range(8)), 0.0),))
