"""Packing solutions: job groups, each with a GPU type, its GPUs and a start time.

A group holds one to four job ids of equal demand (eq. 3; pairs in CUCKOO, up to four in
Muri), runs on one GPU type (eq. 4) on the
listed GPU indices of that type (as many as the members' demand) and starts at ``start``
seconds; it keeps those GPUs until its last job ends (eq. 5, 7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.fields import Reader, join


@dataclass(frozen=True)
class PlacedGroup:
    jobs: tuple[str, ...]
    gpu_type: str
    gpus: tuple[int, ...]
    start: float


@dataclass(frozen=True)
class PackingSolution:
    groups: tuple[PlacedGroup, ...]


def _group(r: Reader, value: Any, path: str) -> PlacedGroup | None:
    keys = ("jobs", "gpu_type", "gpus", "start")
    obj = r.obj(value, path, dict.fromkeys(keys, True))
    if obj is None or any(k not in obj for k in keys):
        return None
    jobs = r.items(obj["jobs"], join(path, "jobs"), r.string)
    gpu_type = r.string(obj["gpu_type"], join(path, "gpu_type"))
    gpus = r.items(obj["gpus"], join(path, "gpus"), lambda v, p: r.number(v, p, minimum=0, integer=True))
    start = r.number(obj["start"], join(path, "start"), minimum=0.0)
    if jobs is None or None in jobs or gpus is None or None in gpus:
        return None
    if gpu_type is None or start is None:
        return None
    return PlacedGroup(tuple(jobs), gpu_type, tuple(gpus), start)


def from_dict(document: Mapping[str, Any]) -> PackingSolution:
    r = Reader("packing solution")
    doc = r.obj(document, "", {"groups": True})
    if doc is None or "groups" not in doc:
        r.abort()
    groups = r.items(doc["groups"], "groups", lambda v, p: _group(r, v, p), nonempty=False)
    r.finish()
    return PackingSolution(tuple(g for g in groups or () if g is not None))


def to_dict(solution: PackingSolution) -> dict[str, Any]:
    return {
        "groups": [
            {"jobs": list(g.jobs), "gpu_type": g.gpu_type, "gpus": list(g.gpus), "start": g.start}
            for g in solution.groups
        ]
    }
