"""The speed work (issue 9, item 7) changed no schedule: every policy's schedule JSON and
objective on the section VI-A workloads, seeds 1-3, 120 and 480 jobs on 64 GPUs, and on
crowded clusters (sharing, preemption with a restart overhead, one global xi), hash for
hash as recorded before the change (commit 32184a2), Tiresias's as recorded when its default
became the released simulator's (issue 29: three queues at 3,250 and 7,200 GPU-s, jobs that
ran ahead of waiting ones inside a queue); and SJF-BSBF under the other readings of
Algorithms 1 and 2 as recorded before the issue 21.3 speed work (commit 20c3052)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from packgap import jsonio
from packgap.analysis.sharing.simulate import POLICY_NAMES
from packgap.analysis.sharing.simulate import policy as run_policy
from packgap.heuristics.sharing.sjf_bsbf import bsbf_in_order, sjf_bsbf
from packgap.instances.sharing.generator import generate
from packgap.sharing import FAMILY, SharingInstance, SharingSolution

#: (jobs, seed, policy) -> (first 32 hex digits of the schedule's SHA-256, average JCT s).
WORKLOADS = {
    (120, 1, "fifo"): ("40121d9f7aa386232ce1502cd4ccc620", 2765.4318729577603),
    (120, 1, "sjf"): ("40121d9f7aa386232ce1502cd4ccc620", 2765.4318729577603),
    (120, 1, "tiresias"): ("b836bf28efa928781142cc67b46d067d", 2765.4318729577603),
    (120, 1, "sjf-ffs"): ("40121d9f7aa386232ce1502cd4ccc620", 2765.4318729577603),
    (120, 1, "sjf-bsbf"): ("40121d9f7aa386232ce1502cd4ccc620", 2765.4318729577603),
    (120, 2, "fifo"): ("763675670a9165498a042ff4b5728f8b", 3315.752176747693),
    (120, 2, "sjf"): ("ba9874c09466f8b0a590e0f4d5ed26e1", 3306.527986197466),
    (120, 2, "tiresias"): ("1c9260aa93e9125e49f77815b07a7f8f", 3307.0615350156663),
    (120, 2, "sjf-ffs"): ("a46e5733fa89dd2afbbe889e786f9ad0", 3356.538690234141),
    (120, 2, "sjf-bsbf"): ("6554914c32a831683b28d5f3f174d565", 3310.65746915505),
    (120, 3, "fifo"): ("1ad21cbfb48d2fe81d6a0080f23aac43", 4060.3317953547007),
    (120, 3, "sjf"): ("ece9be9bca697af9a95546ec147767da", 4027.370588734702),
    (120, 3, "tiresias"): ("a0ac4ff4a010009ae55f1df8313b809d", 3997.0423152047),
    (120, 3, "sjf-ffs"): ("9c11e82c49324b801cb02f1dbfad221c", 4681.375509540639),
    (120, 3, "sjf-bsbf"): ("28b020f20e17aacdb96fc377ebb5fcd2", 4073.592070286892),
    (480, 1, "fifo"): ("5499eae538c22215c490e99bc3c84947", 26943.821493953074),
    (480, 1, "sjf"): ("7bea266dd84527174f2faae0b4142e23", 9061.797548778568),
    (480, 1, "tiresias"): ("6175f48d45bafcb28ac2ed9b7a321406", 12014.311062095943),
    (480, 1, "sjf-ffs"): ("fa8a18a2d30d06264b9a76fcb12381ba", 10531.722956647349),
    (480, 1, "sjf-bsbf"): ("dbdef52622f8671623542f33233ee662", 9447.478265870968),
    (480, 2, "fifo"): ("d6053f55eddefb3f2176af6c13634adb", 17382.743332109243),
    (480, 2, "sjf"): ("975e0e8664e8a64557ee7dd59b0e67d3", 6642.217403267694),
    (480, 2, "tiresias"): ("46b7570008d0928ad1709732ed1bbcb3", 7859.243884262519),
    (480, 2, "sjf-ffs"): ("2d83afa08f90275427ef4a49cf6950a4", 8132.820925746607),
    (480, 2, "sjf-bsbf"): ("82957be9dcc629be0c8db6b1b9fc4514", 7635.8210119020705),
    (480, 3, "fifo"): ("876d6728170c1d6eea4978b5f5b407bb", 21896.787685035102),
    (480, 3, "sjf"): ("5ce67c16b5df7169e5d926c18703cb47", 7309.880377251659),
    (480, 3, "tiresias"): ("fe3d2e4c4b4442d13249be023c953eb0", 10116.312967516893),
    (480, 3, "sjf-ffs"): ("b048e137451b392b0b87f34bb8e33115", 8376.283145927975),
    (480, 3, "sjf-bsbf"): ("4d383f05150c6ec3fdcd90c759a4256f", 6689.774213383647),
}

#: Crowded clusters, seed 1: 60 jobs over 2 h on 16 GPUs with a 30 s restart overhead, and
#: over 1 h on 8 GPUs with xi = 1 (sharing is free); plus Algorithm 1 with free GPUs first
#: and in a given order.
CROWDED: dict[str, dict[str, Any]] = {
    "crowd": {"nodes": 4, "hours": 2.0, "preemption_overhead_s": 30.0},
    "xi10": {"nodes": 2, "hours": 1.0, "xi": 1.0},
}
CROWDED_HASHES = {
    ("crowd", "fifo"): ("8764804e90801a60e4bab1165e494c92", 15149.472463576783),
    ("crowd", "sjf"): ("df307b18da2246e67b23f930eb6443b2", 5544.203913316894),
    ("crowd", "tiresias"): ("94f2b90f0d079d08317df932c96bda99", 6521.217437618386),
    ("crowd", "sjf-ffs"): ("67646b043f0c1e532ba3719c6169034f", 6300.533081686449),
    ("crowd", "sjf-bsbf"): ("3c63ecdcf90ebbda85ff8926aa8addff", 5358.046261949994),
    ("crowd", "bsbf-ffg"): ("01032380bcff2d224ae358c7a1e5a987", 5505.13710324981),
    ("crowd", "in-order"): ("ac108cfaa361d86a47584e4f482f6dc0", 5448.123823914153),
    ("xi10", "fifo"): ("80fddda6bd3ae31b73f7558e2bcd7fc4", 54656.90830755068),
    ("xi10", "sjf"): ("869854646ab61c1977b078cf0a2b218c", 12499.049790032466),
    ("xi10", "tiresias"): ("f7fa2836d08606769f0ee764a3621bca", 14816.723583026773),
    ("xi10", "sjf-ffs"): ("b86822de90899fdba2850806c77123ac", 7407.639362954492),
    ("xi10", "sjf-bsbf"): ("4b3b789b9dd279c7292734126cdbd477", 7094.14552778596),
    ("xi10", "bsbf-ffg"): ("e12b75f348adc27eceb6a42a48b44929", 7094.14552778596),
    ("xi10", "in-order"): ("25d19edd6c4640e04a352f5acd11ca94", 9782.889316762852),
}


#: SJF-BSBF's other readings (:class:`~packgap.heuristics.sharing.batch_scaling.Rule`, the queue
#: orders, free GPUs first) on the 480-job workload, seed 1, and on the crowded clusters.
READINGS: dict[str, dict[str, Any]] = {
    "no-accumulate": {"accumulate": False},
    "sign-test": {"sign_test": True},
    "no-sf": {"share_flag": False},
    "gpus": {"order": "GPUs"},
    "gpu-time": {"order": "GPU-time"},
    "sign-ffg": {"sign_test": True, "free_gpus_first": True},
}
READING_HASHES = {
    ("480", "no-accumulate"): ("c197d0f9ce5be1100047c738ddd42d42", 7907.644497283069),
    ("480", "sign-test"): ("25f30f07f7cc69fc54c0c37b644f368b", 9293.042590572772),
    ("480", "no-sf"): ("1a86fba2d5493a8eb8169565f6e8bf92", 10574.900393282696),
    ("480", "gpus"): ("9b60b9c180cc82d007e47dffce3fb005", 10737.123667425329),
    ("480", "gpu-time"): ("d3f2dbea26f237811515bb6f196daabb", 9432.423673134119),
    ("480", "sign-ffg"): ("3582db6a5ef863c0b653e3fdcb4f31c4", 9752.02300070915),
    ("crowd", "no-accumulate"): ("e74e9f19b020fadc3f6113dcdc91f7b7", 5407.708397341048),
    ("crowd", "sign-test"): ("3668ae44ee57d2c3221707346216f400", 5339.282002030483),
    ("crowd", "no-sf"): ("0065eec03308c38d2fbc57b915b61e8f", 5687.693848933474),
    ("crowd", "gpus"): ("f3a088c24f2148693fbe953d6d119cd9", 5520.5962693383135),
    ("crowd", "gpu-time"): ("1cd7c962a62c4006a6e075259c96c3ab", 5466.372005723378),
    ("crowd", "sign-ffg"): ("57e788c940041b886e12c93206f55e27", 5334.411438114031),
    ("xi10", "no-accumulate"): ("e0b0c4eaa2753786125b171ddf8ff301", 8371.587942267586),
    ("xi10", "sign-test"): ("4b3b789b9dd279c7292734126cdbd477", 7094.14552778596),
    ("xi10", "no-sf"): ("4b3b789b9dd279c7292734126cdbd477", 7094.14552778596),
    ("xi10", "gpus"): ("ed7d413444784c15280859081885a1a5", 7919.904842003534),
    ("xi10", "gpu-time"): ("7e23617ae1dc5530d5339a6f9e05affe", 7289.639961366266),
    ("xi10", "sign-ffg"): ("e12b75f348adc27eceb6a42a48b44929", 7094.14552778596),
}


def fingerprint(instance: SharingInstance, solution: SharingSolution) -> tuple[str, float]:
    FAMILY.validate(instance, solution)
    text = jsonio.dumps(FAMILY.solution_to_dict(solution))
    return hashlib.sha256(text.encode()).hexdigest()[:32], FAMILY.evaluate(instance, solution).objective


@pytest.mark.parametrize(("jobs", "seed"), [(120, 1), (120, 2), (120, 3), (480, 1), (480, 2), (480, 3)])
def test_generated_workloads_keep_their_schedules(jobs: int, seed: int) -> None:
    instance = generate(jobs, seed, workload="v1")
    for name in POLICY_NAMES:
        assert fingerprint(instance, run_policy(name, instance)) == WORKLOADS[jobs, seed, name], name


@pytest.mark.parametrize("label", sorted(CROWDED))
def test_crowded_clusters_keep_their_schedules(label: str) -> None:
    instance = generate(60, 1, **CROWDED[label], workload="v1")
    runs = {name: run_policy(name, instance) for name in POLICY_NAMES}
    runs["bsbf-ffg"] = sjf_bsbf(instance, free_gpus_first=True)
    runs["in-order"] = bsbf_in_order(instance, {j.id: -j.arrival for j in instance.jobs})
    for name, solution in runs.items():
        assert fingerprint(instance, solution) == CROWDED_HASHES[label, name], name


@pytest.mark.parametrize("label", ["480", *sorted(CROWDED)])
def test_sjf_bsbf_readings_keep_their_schedules(label: str) -> None:
    instance = generate(480, 1, workload="v1") if label == "480" else generate(60, 1, **CROWDED[label], workload="v1")
    for name, options in READINGS.items():
        assert fingerprint(instance, sjf_bsbf(instance, **options)) == READING_HASHES[label, name], name
