"""The ``muri`` packer against Muri's own ``Blossom_Same.run`` (tests/peers/muri/groups.json,
PROVENANCE.md there): 75 job sets of Muri's 400-job trace, each with the cluster size Muri saw.

Jobs of the same model and GPU count have identical edge weights and Muri breaks such ties in
its own floating-point order, so a set agrees when the groups are equal up to swaps of such
jobs. Every set, agreeing or not, is also replayed round by round from Muri's own nodes: our
matching weighs exactly what Muri's does (a tie when the pairs differ), Muri's recorded weights
are ours, and our merge rule applied to Muri's matching gives Muri's next nodes, and at the
end its groups, job for job and in order.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from packgap.gpus import GpuType
from packgap.heuristics.packing.muri import Entry, MuriOptions, edge_weight, match_round, merge_in_order, muri_groups
from packgap.instances.packing import muri
from packgap.packing import Job, PackingInstance

PEER = Path(__file__).resolve().parents[1] / "peers" / "muri"
TRACE = Path(__file__).resolve().parents[3] / "shared" / "traces" / "muri" / "cluster_exp" / "cluster_trace.csv"
CASES = json.loads((PEER / "groups.json").read_text())

pytestmark = [
    pytest.mark.traces,
    pytest.mark.skipif(not TRACE.exists(), reason="Muri traces not present"),
]


@pytest.fixture(scope="module")
def trace() -> PackingInstance:
    return muri.build(TRACE, seed=0, gpu_types=(("V100", 256),))


def _case(trace: PackingInstance, case: dict) -> PackingInstance:  # type: ignore[type-arg]
    jobs = {j.id: j for j in trace.jobs}
    chosen = tuple(jobs[f"muri-{i}"] for i in case["jobs"])
    return replace(trace, jobs=chosen, gpu_types=(GpuType("V100", case["cluster_gpu"]),))


def _kinds(instance: PackingInstance, groups: object) -> Counter[tuple[tuple[str, int], ...]]:
    jobs = {j.id: j for j in instance.jobs}
    return Counter(tuple(sorted((jobs[j].model, jobs[j].gpus) for j in g)) for g in groups)  # type: ignore[attr-defined]


def _theirs(case: dict) -> list[tuple[str, ...]]:  # type: ignore[type-arg]
    return [tuple(f"muri-{i}" for i in g) for g in case["groups"]]


def test_groups_agree_up_to_swaps_of_equal_jobs(trace: PackingInstance) -> None:
    agree = []
    for case in CASES:
        inst = _case(trace, case)
        if _kinds(inst, muri_groups(inst, autopack=False)) == _kinds(inst, _theirs(case)):
            agree.append(case)
    # Measured: 73 of 75 (15 job for job); the 2 others are ties (the replay below).
    assert len(agree) >= 70
    sizes = {len(g) for case in agree for g in case["groups"]}
    assert {3, 4} <= sizes
    assert {case["gpus"] for case in agree} >= {1, 2, 4, 8, 16, 32, "mixed"}


def _nodes(jobs: dict[int, Job], row_ids: dict[str, list[list[int]]]) -> dict[int, list[tuple[Job, ...]]]:
    return {int(g): [tuple(jobs[i] for i in node) for node in row] for g, row in row_ids.items()}


def _number(job: Job) -> int:
    return int(job.id.removeprefix("muri-"))


def _matched_weight(listed: list[Entry]) -> float:
    return sum(edge_weight(e[0] + e[1], 1) for _, e in listed if len(e) == 2)


def test_every_round_is_muris_up_to_equal_weight_ties(trace: PackingInstance) -> None:
    jobs = {_number(j): j for j in trace.jobs}
    rounds = differ = 0
    for case in CASES:
        for r, step in enumerate(case["rounds"]):
            nodes = _nodes(jobs, step["nodes"])
            demand = sum(g * len(row) for g, row in nodes.items())
            theirs: list[Entry] = [(g, tuple(nodes[g][i] for i in idx)) for g, idx, _ in step["listed"]]
            for (_, entry), (_, _, weight) in zip(theirs, step["listed"], strict=True):
                if len(entry) == 2:
                    assert edge_weight(entry[0] + entry[1], 1) == pytest.approx(weight, rel=1e-12)
            ours = match_round(nodes, 1, MuriOptions())
            assert _matched_weight(ours) == pytest.approx(_matched_weight(theirs), rel=1e-12)
            differ += {(g, frozenset(e)) for g, e in ours} != {(g, frozenset(e)) for g, e in theirs}
            rounds += 1
            after, _ = merge_in_order(theirs, demand, case["cluster_gpu"])
            ids = {str(g): [[_number(j) for j in node] for node in row] for g, row in after.items()}
            if r + 1 < len(case["rounds"]):
                assert ids == case["rounds"][r + 1]["nodes"]
            else:
                assert [node for row in ids.values() for node in row] == case["groups"]
    assert rounds == 129
    assert differ > 0  # ties happen (82 of 129 rounds measured), so the replay is needed
