"""Planning solutions: for every used GPU, the ordered groups it runs (no idle time)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.fields import Reader, join


@dataclass(frozen=True)
class GpuSequence:
    """Groups run back to back on GPU number ``gpu`` (0-based) of type ``gpu_type``."""

    gpu_type: str
    gpu: int
    groups: tuple[str, ...]


@dataclass(frozen=True)
class PlanningSolution:
    sequences: tuple[GpuSequence, ...]


def _sequence(r: Reader, value: Any, path: str) -> GpuSequence | None:
    obj = r.obj(value, path, {"gpu_type": True, "gpu": True, "groups": True})
    if obj is None or any(k not in obj for k in ("gpu_type", "gpu", "groups")):
        return None
    gpu_type = r.string(obj["gpu_type"], join(path, "gpu_type"))
    gpu = r.number(obj["gpu"], join(path, "gpu"), minimum=0, integer=True)
    groups = r.items(obj["groups"], join(path, "groups"), r.string, nonempty=False)
    if gpu_type is None or gpu is None or groups is None or None in groups:
        return None
    return GpuSequence(gpu_type, gpu, tuple(groups))


def from_dict(document: Mapping[str, Any]) -> PlanningSolution:
    r = Reader("planning solution")
    doc = r.obj(document, "", {"sequences": True})
    if doc is None or "sequences" not in doc:
        r.abort()
    seqs = r.items(doc["sequences"], "sequences", lambda v, p: _sequence(r, v, p), nonempty=False)
    r.finish()
    return PlanningSolution(tuple(s for s in seqs or () if s is not None))


def to_dict(solution: PlanningSolution) -> dict[str, Any]:
    return {"sequences": [{"gpu_type": s.gpu_type, "gpu": s.gpu, "groups": list(s.groups)} for s in solution.sequences]}
