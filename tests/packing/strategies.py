"""Small packing instances: a hand-written document and a Hypothesis strategy."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from packgap.gpus import GpuType
from packgap.packing import Job, PackingInstance
from packgap.packing.interleave import StageProfile

#: CUCKOO Table 3 (ms): ResNet (sync before next forward) and BERT (sync before communication).
RESNET = StageProfile(10, 37, 76, 98)
BERT = StageProfile(10, 72, 61, 363)


def tiny_document(**overrides: Any) -> dict[str, Any]:
    """Two GPU types, three jobs on 1 GPU (two ResNet-like, one BERT-like)."""

    def prof(p: StageProfile, speed: float) -> dict[str, float]:
        return {"S": p.load, "F": p.forward * speed, "B": p.backward * speed, "C": p.communication}

    doc: dict[str, Any] = {
        "schema": "packgap.packing",
        "version": 1,
        "name": "tiny",
        "gpu_types": [{"name": "A800", "count": 1}, {"name": "A10", "count": 2}],
        "jobs": [
            {
                "id": "r1",
                "arrival": 0.0,
                "deadline": 60.0,
                "gpus": 1,
                "iterations": 200,
                "model": "resnet18",
                "sync": "before_forward",
                "profiles": {"A800": prof(RESNET, 1.0), "A10": prof(RESNET, 2.0)},
            },
            {
                "id": "b1",
                "arrival": 5.0,
                "deadline": 400.0,
                "gpus": 1,
                "iterations": 300,
                "model": "bert",
                "sync": "before_communication",
                "profiles": {"A800": prof(BERT, 1.0), "A10": prof(BERT, 1.5)},
            },
            {
                "id": "r2",
                "arrival": 10.0,
                "deadline": 90.0,
                "gpus": 1,
                "iterations": 100,
                "model": "resnet50",
                "sync": "before_forward",
                "profiles": {"A800": prof(RESNET, 1.5), "A10": prof(RESNET, 3.0)},
            },
        ],
    }
    doc.update(overrides)
    return doc


_MS = st.sampled_from((0.5, 5.0, 10.0, 37.0, 61.0, 98.0, 363.0))


@st.composite
def instances(draw: st.DrawFn, max_jobs: int = 6, demands: tuple[int, ...] = (1, 2)) -> PackingInstance:
    types = (GpuType("fast", draw(st.integers(1, 3))), GpuType("slow", draw(st.integers(2, 4))))
    jobs = []
    for i in range(draw(st.integers(1, max_jobs))):
        arrival = float(draw(st.integers(0, 50)))
        profiles = tuple(
            StageProfile(draw(_MS), draw(_MS) * speed, draw(_MS) * speed, draw(_MS))
            for speed in (1.0, draw(st.sampled_from((1.0, 1.5, 3.0))))
        )
        jobs.append(
            Job(
                f"j{i}",
                arrival,
                arrival + float(draw(st.integers(1, 400))),
                draw(st.sampled_from(demands)),
                draw(st.integers(1, 300)),
                "m",
                draw(st.sampled_from(("before_forward", "before_communication"))),
                profiles,
            )
        )
    return PackingInstance(
        name="h",
        gpu_types=types,
        jobs=tuple(jobs),
        objective=draw(st.sampled_from(("weighted", "mean-jct", "late-count"))),
        interleaving=draw(st.sampled_from(("am", "muri-p"))),
        interference=draw(st.sampled_from((1.0, 1.5, 2.0))),
    )


@st.composite
def grid_instances(draw: st.DrawFn, max_jobs: int = 4, mixed: bool = False) -> PackingInstance:
    """Small instances whose group timelines land on whole seconds (exact CP-SAT data)."""
    slow = 2 if mixed else draw(st.integers(1, 2))
    types = (GpuType("fast", draw(st.integers(1, 2))), GpuType("slow", slow))
    demands = (1, 2) if mixed else (draw(st.sampled_from((1, 2))) if min(t.count for t in types) > 1 else 1,)
    ms = st.sampled_from((0, 10, 20, 40, 100, 300))
    jobs = []
    for i in range(draw(st.integers(2, max_jobs))):
        arrival = float(draw(st.integers(0, 100)))
        profiles = tuple(
            StageProfile(draw(ms), draw(ms) * speed, draw(ms) * speed + 10, draw(ms))
            for speed in (1, draw(st.sampled_from((1, 2, 3))))
        )
        jobs.append(
            Job(
                f"j{i}",
                arrival,
                arrival + float(draw(st.integers(50, 600))),
                draw(st.sampled_from(demands)),
                1000 * draw(st.integers(1, 3)),
                "m",
                draw(st.sampled_from(("before_forward", "before_communication"))),
                profiles,
            )
        )
    return PackingInstance(
        name="grid",
        gpu_types=types,
        jobs=tuple(jobs),
        objective=draw(st.sampled_from(("weighted", "mean-jct", "late-count"))),
        interleaving=draw(st.sampled_from(("am", "muri-p"))),
        interference=1.0,
    )
