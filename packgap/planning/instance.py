"""Planning instances: CUCKOO's execution-planning phase (section 3.3.3).

Job groups are already formed. Each group needs one GPU of a type (the paper reduces
planning to one-GPU groups: "we only consider situation that all of jobs only request
one GPU"), has a processing time on every GPU type and a deadline; all groups are
ready at time 0 ("now"). A plan assigns each group to one GPU and an order on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.fields import Reader, join, raw_field
from packgap.gpus import GpuType, read_gpu_type

SCHEMA = "packgap.planning"
VERSION = 1


@dataclass(frozen=True)
class Group:
    """A job group: ``times[k]`` is its processing time (s) on ``gpu_types[k]``."""

    id: str
    times: tuple[float, ...]
    deadline: float
    jobs: tuple[str, ...]


@dataclass(frozen=True)
class PlanningInstance:
    """Groups to plan on a heterogeneous cluster.

    ``tardiness_weight`` weighs the paper's deadline cost C2 against the completion-time
    cost C1 (eq. 13-14 add them with weight 1, the default); 0 gives pure sum of
    completion times, the problem Horn's flow model solves exactly.
    """

    name: str
    gpu_types: tuple[GpuType, ...]
    groups: tuple[Group, ...]
    tardiness_weight: float = 1.0

    @property
    def type_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.gpu_types)

    def group_index(self) -> dict[str, int]:
        return {g.id: i for i, g in enumerate(self.groups)}


def _group(r: Reader, value: Any, path: str, types: tuple[str, ...]) -> Group | None:
    obj = r.obj(value, path, {"id": True, "times": True, "deadline": True, "jobs": False})
    if obj is None or any(k not in obj for k in ("id", "times", "deadline")):
        return None
    gid = r.string(obj["id"], join(path, "id"))
    deadline = r.number(obj["deadline"], join(path, "deadline"), minimum=0.0)
    times_obj = r.obj(obj["times"], join(path, "times"), dict.fromkeys(types, True), data_keys=True)
    times: list[float] = []
    if times_obj is not None:
        for t in types:
            if t in times_obj:
                times.append(r.number(times_obj[t], join(join(path, "times"), t), positive=True))
    jobs: list[str] | None = [gid] if gid is not None else None
    if "jobs" in obj:
        jobs = r.items(obj["jobs"], join(path, "jobs"), r.string)
    ok = (
        gid is not None
        and deadline is not None
        and len(times) == len(types)
        and all(t is not None for t in times)
        and jobs is not None
        and all(j is not None for j in jobs)
    )
    return Group(gid, tuple(times), deadline, tuple(jobs or ())) if ok else None


def from_dict(document: Mapping[str, Any]) -> PlanningInstance:
    r = Reader("planning instance")
    keys = {"schema": True, "version": True, "name": True, "gpu_types": True, "groups": True, "tardiness_weight": False}
    doc = r.obj(document, "", keys)
    if doc is None or any(k not in doc for k in ("name", "gpu_types", "groups")):
        r.abort()
    name = r.string(doc["name"], "name")
    types = r.items(doc["gpu_types"], "gpu_types", lambda v, p: read_gpu_type(r, v, p)) or []
    r.unique(raw_field(doc["gpu_types"], "name"), "gpu_types", "name")
    type_names = tuple(t.name for t in types if t is not None)
    groups = r.items(doc["groups"], "groups", lambda v, p: _group(r, v, p, type_names)) or []
    r.unique(raw_field(doc["groups"], "id"), "groups", "id")
    weight = 1.0
    if "tardiness_weight" in doc:
        weight = r.number(doc["tardiness_weight"], "tardiness_weight", minimum=0.0)
    r.finish()
    return PlanningInstance(name, tuple(t for t in types if t), tuple(g for g in groups if g), weight)


def to_dict(instance: PlanningInstance) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "name": instance.name,
        "tardiness_weight": instance.tardiness_weight,
        "gpu_types": [{"name": t.name, "count": t.count} for t in instance.gpu_types],
        "groups": [
            {
                "id": g.id,
                "times": dict(zip(instance.type_names, g.times, strict=True)),
                "deadline": g.deadline,
                "jobs": list(g.jobs),
            }
            for g in instance.groups
        ],
    }
