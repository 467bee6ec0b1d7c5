"""Placement solutions: the GPUs each job of the round runs on (job id -> GPU ids)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.fields import Reader, join


@dataclass(frozen=True)
class PlacementSolution:
    """``allocations[job_id]`` = the GPU ids given to that job, in the order chosen."""

    allocations: Mapping[str, tuple[int, ...]]


def from_dict(document: Mapping[str, Any]) -> PlacementSolution:
    r = Reader("placement solution")
    doc = r.obj(document, "", {"allocations": True})
    if doc is None or "allocations" not in doc:
        r.abort()
    allocations: dict[str, tuple[int, ...]] = {}
    if not isinstance(doc["allocations"], Mapping):
        r.error("allocations", "expected an object job id -> list of GPU ids")
    else:
        for jid, gpus in doc["allocations"].items():
            path = join("allocations", jid)
            ids = r.items(gpus, path, lambda v, p: r.number(v, p, minimum=0, integer=True))
            if ids is not None and None not in ids:
                allocations[jid] = tuple(ids)
    r.finish()
    return PlacementSolution(allocations)


def to_dict(solution: PlacementSolution) -> dict[str, Any]:
    return {"allocations": {j: list(g) for j, g in solution.allocations.items()}}
