"""Hypothesis strategy for small placement rounds (shared by the policy and exact tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from packgap.placement import Job, PlacementInstance

SCORES = (0.9, 0.95, 1.0, 1.05, 1.3, 2.5)


@st.composite
def rounds(draw: st.DrawFn, max_nodes: int = 4, max_per_node: int = 4) -> PlacementInstance:
    nodes = draw(st.integers(1, max_nodes))
    per_node = draw(st.integers(1, max_per_node))
    n = nodes * per_node
    classes = ("A", "B")
    scores = {c: tuple(draw(st.lists(st.sampled_from(SCORES), min_size=n, max_size=n))) for c in classes}
    unavailable = frozenset(draw(st.sets(st.integers(0, n - 1), max_size=n // 3)))
    free = n - len(unavailable)
    jobs: list[Job] = []
    left = free
    for i in range(draw(st.integers(0, 5))):
        if left == 0:
            break
        gpus = draw(st.integers(1, min(left, per_node + 2)))
        left -= gpus
        jobs.append(
            Job(
                f"j{i}",
                gpus,
                draw(st.sampled_from(classes)),
                draw(st.sampled_from(("m1", "m2"))),
                draw(st.sampled_from((1.0, 5.0))),
            )
        )
    return PlacementInstance(
        name="h",
        nodes=nodes,
        gpus_per_node=per_node,
        classes=classes,
        pm_scores=scores,
        locality_penalty=draw(st.sampled_from((1.0, 1.2, 1.5, 1.7, 3.0))),
        jobs=tuple(jobs),
        unavailable=unavailable,
        model_penalties=draw(st.sampled_from(({}, {"m2": 2.0}))),
        objective=draw(st.sampled_from(("slowdown", "work"))),
    )
