"""Every per-round placement stays what the straightforward implementation gives (issue 21).

The policies place with per-class presorted arrays and free masks; ``_reference`` below is the
plain reading they replaced (each job sorts all free GPUs, the free list is rebuilt after each
job), kept here only as the oracle. Placements are compared job by job, GPU order included, on
hypothesis rounds with many ties in the PM-scores, on generated rounds, and on the golden rounds.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.heuristics.placement import POLICIES
from packgap.heuristics.placement.lv_matrix import traverse
from packgap.heuristics.placement.pm_first import placement_order
from packgap.heuristics.placement.pm_score import ClassBins
from packgap.heuristics.placement.policies import policy_bins
from packgap.instances.placement.rounds import generate_round
from packgap.placement import Job, PlacementInstance
from tests.placement.test_golden import ROUNDS as GOLDEN_ROUNDS

Alloc = dict[str, tuple[int, ...]]


def _allocate(
    instance: PlacementInstance, jobs: Sequence[Job], pick: Callable[[list[int], Job], Sequence[int]]
) -> Alloc:
    free = instance.free_gpus()
    out: Alloc = {}
    for job in jobs:
        gpus = tuple(int(g) for g in pick(free, job))
        out[job.id] = gpus
        free = [g for g in free if g not in set(gpus)]
    return out


def _pm_first_gpus(free: Sequence[int], demand: int, scores: Sequence[float], per_node: int, tie: str) -> list[int]:
    if tie == "gpu":
        return sorted(free, key=lambda g: (scores[g], g))[:demand]
    same = Counter((g // per_node, scores[g]) for g in free)
    return sorted(free, key=lambda g: (scores[g], abs(same[g // per_node, scores[g]] - demand), g))[:demand]


def _pal_gpus(
    free: list[int], demand: int, bins: ClassBins, per_node: int, l_across: float, p: dict[str, Any]
) -> list[int]:
    scores = bins.scores
    if not 1 < demand <= per_node:
        return _pm_first_gpus(free, demand, scores, per_node, p["tie_break"])
    for cell in traverse(bins.values, l_across, p["traversal"]):
        eligible = [g for g in free if scores[g] <= cell.value]
        if cell.across:
            if len(eligible) >= demand:
                return _pm_first_gpus(eligible, demand, scores, per_node, p["tie_break"])
            continue
        by_node: dict[int, list[int]] = {}
        for g in sorted(eligible):
            by_node.setdefault(g // per_node, []).append(g)
        nodes = sorted(by_node)
        if p["node_order"] == "most-eligible":
            nodes.sort(key=lambda k: -len(by_node[k]))
        combos = [c for k in nodes if len(by_node[k]) >= demand for c in itertools.combinations(by_node[k], demand)]
        if combos:
            return list(min(combos, key=lambda c: max(scores[g] for g in c)))
    return _pm_first_gpus(free, demand, scores, per_node, p["tie_break"])


def _packed_gpus(free: Sequence[int], demand: int, per_node: int) -> list[int]:
    by_node: dict[int, list[int]] = {}
    for g in sorted(free):
        by_node.setdefault(g // per_node, []).append(g)
    exact = [n for n in sorted(by_node) if len(by_node[n]) == demand]
    if exact:
        return by_node[exact[0]]
    larger = [n for n in sorted(by_node) if len(by_node[n]) > demand]
    if larger:
        return by_node[min(larger, key=lambda n: (len(by_node[n]), n))][:demand]
    taken: list[int] = []
    while len(taken) < demand and by_node:
        node = max(by_node, key=lambda n: (len(by_node[n]), -n))
        taken += by_node.pop(node)[: demand - len(taken)]
    return taken


def _reference(
    name: str, inst: PlacementInstance, seed: int, params: dict[str, Any], bins: dict[str, ClassBins]
) -> Alloc:
    """The placement the policy ``name`` gave before issue 21, for the same parameters."""
    n = inst.gpus_per_node
    if name.startswith("packed"):
        return _allocate(inst, inst.jobs, lambda free, job: _packed_gpus(free, job.gpus, n))
    if name.startswith("random"):
        rng = np.random.default_rng(seed)
        return _allocate(inst, inst.jobs, lambda free, j: sorted(rng.choice(free, size=j.gpus, replace=False).tolist()))
    p = {"tie_break": "gpu", "traversal": "paper", "node_order": "id", **params}
    order = placement_order(inst.jobs, len(inst.free_gpus()), inst.classes)
    if name == "pm-first":
        return _allocate(
            inst, order, lambda free, j: _pm_first_gpus(free, j.gpus, bins[j.job_class].scores, n, p["tie_break"])
        )
    return _allocate(inst, order, lambda free, j: _pal_gpus(free, j.gpus, bins[j.job_class], n, inst.penalty(j), p))


#: Every policy under every combination of its tie-breaking and traversal readings.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *[(name, {}) for name in sorted(POLICIES) if not POLICIES[name].binned],
    *[("pm-first", {"tie_break": t, "artifact_bins": a}) for t in ("gpu", "node-fit") for a in (False, True)],
    *[
        ("pal", {"tie_break": t, "traversal": tr, "node_order": o, "artifact_bins": a})
        for t in ("gpu", "node-fit")
        for tr in ("paper", "all")
        for o in ("id", "most-eligible")
        for a in (False, True)
    ],
    ("pal", {"two_sided_outliers": False}),
]


def _assert_same(inst: PlacementInstance, seed: int = 0) -> None:
    binnings = {
        (t, a): policy_bins(inst, two_sided=t, artifact=a) for t, a in ((True, False), (True, True), (False, False))
    }
    for name, params in CONFIGS:
        spec, given = POLICIES[name], dict(params)
        if spec.binned:
            bins = binnings[given.pop("two_sided_outliers", True), given.pop("artifact_bins", False)]
            got = spec.heuristic(inst, seed, bins=bins, **given).allocations
        else:
            bins, got = {}, spec.heuristic(inst, seed).allocations
        assert dict(got) == _reference(name, inst, seed, given, bins), (name, params)


#: Few distinct scores, so PM-scores tie within and across nodes.
TIED = (0.9, 0.95, 1.0, 1.0, 1.05, 1.3, 2.5)


@st.composite
def busy_rounds(draw: st.DrawFn) -> PlacementInstance:
    """Rounds of up to 6 nodes x 8 GPUs and up to 24 jobs, some GPUs held, scores tied."""
    nodes, per_node = draw(st.integers(1, 6)), draw(st.sampled_from((1, 2, 3, 4, 8)))
    n = nodes * per_node
    classes = ("A", "B", "C")
    scores = {c: tuple(draw(st.lists(st.sampled_from(TIED), min_size=n, max_size=n))) for c in classes}
    unavailable = frozenset(draw(st.sets(st.integers(0, n - 1), max_size=n // 3)))
    left, jobs = n - len(unavailable), []
    for i in range(draw(st.integers(0, 24))):
        if left == 0:
            break
        gpus = draw(st.integers(1, min(left, per_node + 3)))
        left -= gpus
        jobs.append(Job(f"j{i}", gpus, draw(st.sampled_from(classes)), draw(st.sampled_from(("m1", "m2")))))
    return PlacementInstance(
        name="busy",
        nodes=nodes,
        gpus_per_node=per_node,
        classes=classes,
        pm_scores=scores,
        locality_penalty=draw(st.sampled_from((1.0, 1.05, 1.5, 3.0))),
        jobs=tuple(jobs),
        unavailable=unavailable,
        model_penalties=draw(st.sampled_from(({}, {"m2": 2.0}))),
    )


@settings(max_examples=200, deadline=None)
@given(busy_rounds(), st.integers(0, 3))
def test_same_placements_on_random_rounds(inst: PlacementInstance, seed: int) -> None:
    _assert_same(inst, seed)


@pytest.mark.parametrize(
    ("gpus", "jobs", "held", "per_node", "seed"),
    [(64, 30, 0.0, 4, 3), (128, 60, 0.3, 8, 4), (256, 90, 0.1, 4, 5), (512, 200, 0.2, 8, 6)],
)
def test_same_placements_on_generated_rounds(gpus: int, jobs: int, held: float, per_node: int, seed: int) -> None:
    _assert_same(generate_round(gpus, jobs, seed, held=held, gpus_per_node=per_node))


@pytest.mark.parametrize("round_name", list(GOLDEN_ROUNDS))
def test_same_placements_on_golden_rounds(round_name: str) -> None:
    _assert_same(GOLDEN_ROUNDS[round_name]())
