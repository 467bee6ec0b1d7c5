"""Packing instances: CUCKOO's joint packing + heterogeneous scheduling problem (section 3.3.1).

Jobs arrive over time (``arrival``, s), carry a ``deadline`` (s), a GPU demand ``gpus``
(eq. 3: only jobs of equal demand share a group), a number of ``iterations`` and, per GPU
type, a per-iteration stage profile in ms (Table 3: ``S`` data loading, ``F`` forward,
``B`` backward, ``C`` communication) plus the synchronisation rule of section 3.2.1.

The objective is eq. 10, ``V = alpha * V1 + beta * V2`` with V1 the mean JCT in seconds
(eq. 8) and V2 the fraction of late jobs (eq. 9). The paper gives no values for alpha and
beta; the defaults ``alpha = 1/3600`` (V1 counted in hours) and ``beta = 1`` price one
percentage point of late jobs like 36 s of mean JCT. ``objective = "mean-jct"`` scores V1
alone and ``"late-count"`` the number of late jobs (N * V2).

``interleaving`` names the estimator the evaluator treats as ground truth for a group's
iteration time ("am" with ``interference`` = lambda, 2 in the paper's example; "muri-p";
or "muri", Muri's released simulator: :func:`packgap.packing.interleave.muri_group_iteration`).

Optional per job, from traces that give them (Muri's): ``duration`` (s), the trace's job
length, which Muri's simulator takes as a waiting job's remaining time before it first runs,
and per profile ``iteration`` (ms), the measured standalone iteration time (Muri's
``iteration_time``), which "muri" uses for a job alone instead of ``S + F + B + C``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from packgap.fields import Reader, join, raw_field
from packgap.gpus import GpuType, read_gpu_type
from packgap.packing.interleave import SYNC_RULES, Member, StageProfile, SyncRule

SCHEMA = "packgap.packing"
VERSION = 1

Objective = Literal["weighted", "mean-jct", "late-count"]
OBJECTIVES: tuple[Objective, ...] = ("weighted", "mean-jct", "late-count")
Interleaving = Literal["am", "muri-p", "muri"]
INTERLEAVINGS: tuple[Interleaving, ...] = ("am", "muri-p", "muri")

DEFAULT_ALPHA = 1.0 / 3600.0
DEFAULT_BETA = 1.0
DEFAULT_INTERFERENCE = 2.0
_STAGE_KEYS = ("S", "F", "B", "C")


@dataclass(frozen=True)
class Job:
    """One training job; ``profiles[k]`` is its stage profile on ``gpu_types[k]``."""

    id: str
    arrival: float
    deadline: float
    gpus: int
    iterations: int
    model: str
    sync: SyncRule
    profiles: tuple[StageProfile, ...]
    duration: float | None = None

    def member(self, k: int) -> Member:
        return Member(self.profiles[k], self.sync)


@dataclass(frozen=True)
class PackingInstance:
    name: str
    gpu_types: tuple[GpuType, ...]
    jobs: tuple[Job, ...]
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA
    objective: Objective = "weighted"
    interleaving: Interleaving = "am"
    interference: float = DEFAULT_INTERFERENCE

    @property
    def type_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.gpu_types)

    def job_index(self) -> dict[str, int]:
        return {j.id: i for i, j in enumerate(self.jobs)}


def _profile(r: Reader, value: Any, path: str) -> StageProfile | None:
    obj = r.obj(value, path, {**dict.fromkeys(_STAGE_KEYS, True), "iteration": False})
    if obj is None or any(k not in obj for k in _STAGE_KEYS):
        return None
    times = [r.number(obj[k], join(path, k), minimum=0.0) for k in _STAGE_KEYS]
    measured = r.number(obj["iteration"], join(path, "iteration"), positive=True) if "iteration" in obj else None
    if any(t is None for t in times) or ("iteration" in obj and measured is None):
        return None
    if times[0] + times[1] + times[2] + times[3] <= 0:
        r.error(path, "an iteration must take some time (S + F + B + C > 0)")
        return None
    load, forward, backward, communication = times
    return StageProfile(load, forward, backward, communication, measured)


_JOB_KEYS = {
    "id": True,
    "arrival": True,
    "deadline": True,
    "gpus": True,
    "iterations": True,
    "model": True,
    "sync": True,
    "profiles": True,
    "duration": False,
}


def _job(r: Reader, value: Any, path: str, types: tuple[str, ...]) -> Job | None:
    obj = r.obj(value, path, _JOB_KEYS)
    if obj is None or any(k not in obj for k, required in _JOB_KEYS.items() if required):
        return None
    jid = r.string(obj["id"], join(path, "id"))
    arrival = r.number(obj["arrival"], join(path, "arrival"), minimum=0.0)
    deadline = r.number(obj["deadline"], join(path, "deadline"), minimum=0.0)
    gpus = r.number(obj["gpus"], join(path, "gpus"), positive=True, integer=True)
    iterations = r.number(obj["iterations"], join(path, "iterations"), positive=True, integer=True)
    model = r.string(obj["model"], join(path, "model"))
    sync = r.string(obj["sync"], join(path, "sync"), choices=SYNC_RULES)
    ppath = join(path, "profiles")
    pobj = r.obj(obj["profiles"], ppath, dict.fromkeys(types, True), data_keys=True)
    profiles = [_profile(r, pobj[t], join(ppath, t)) for t in types if pobj and t in pobj]
    duration = r.number(obj["duration"], join(path, "duration"), minimum=0.0) if "duration" in obj else None
    if arrival is not None and deadline is not None and deadline < arrival:
        r.error(join(path, "deadline"), f"deadline {deadline} is before arrival {arrival}")
        return None
    fields = (jid, arrival, deadline, gpus, iterations, model, sync)
    if any(f is None for f in fields) or len(profiles) != len(types) or None in profiles:
        return None
    if "duration" in obj and duration is None:
        return None
    stages = tuple(p for p in profiles if p is not None)
    return Job(jid, arrival, deadline, gpus, iterations, model, sync, stages, duration)


def from_dict(document: Mapping[str, Any]) -> PackingInstance:
    r = Reader("packing instance")
    keys = {
        "schema": True,
        "version": True,
        "name": True,
        "gpu_types": True,
        "jobs": True,
        "alpha": False,
        "beta": False,
        "objective": False,
        "interleaving": False,
        "interference": False,
    }
    doc = r.obj(document, "", keys)
    if doc is None or any(k not in doc for k in ("name", "gpu_types", "jobs")):
        r.abort()
    name = r.string(doc["name"], "name")
    types = r.items(doc["gpu_types"], "gpu_types", lambda v, p: read_gpu_type(r, v, p)) or []
    r.unique(raw_field(doc["gpu_types"], "name"), "gpu_types", "name")
    type_names = tuple(t.name for t in types if t is not None)
    jobs = r.items(doc["jobs"], "jobs", lambda v, p: _job(r, v, p, type_names)) or []
    r.unique(raw_field(doc["jobs"], "id"), "jobs", "id")
    widest = max((t.count for t in types if t is not None), default=0)
    for i, job in enumerate(jobs):
        if job is not None and job.gpus > widest:
            r.error(join(join("jobs", i), "gpus"), f"demand {job.gpus} exceeds every GPU type's count")
    alpha = r.number(doc.get("alpha", DEFAULT_ALPHA), "alpha", minimum=0.0)
    beta = r.number(doc.get("beta", DEFAULT_BETA), "beta", minimum=0.0)
    objective = r.string(doc.get("objective", "weighted"), "objective", choices=OBJECTIVES)
    interleaving = r.string(doc.get("interleaving", "am"), "interleaving", choices=INTERLEAVINGS)
    interference = r.number(doc.get("interference", DEFAULT_INTERFERENCE), "interference", minimum=1.0)
    r.finish()
    return PackingInstance(
        name,
        tuple(t for t in types if t),
        tuple(j for j in jobs if j),
        alpha,
        beta,
        objective,
        interleaving,
        interference,
    )


def _profile_dict(p: StageProfile) -> dict[str, float]:
    stages = dict(zip(_STAGE_KEYS, (p.load, p.forward, p.backward, p.communication), strict=True))
    return stages if p.measured is None else {**stages, "iteration": p.measured}


def _job_dict(j: Job, types: tuple[str, ...]) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": j.id,
        "arrival": j.arrival,
        "deadline": j.deadline,
        "gpus": j.gpus,
        "iterations": j.iterations,
        "model": j.model,
        "sync": j.sync,
        "profiles": {t: _profile_dict(p) for t, p in zip(types, j.profiles, strict=True)},
    }
    return doc if j.duration is None else {**doc, "duration": j.duration}


def to_dict(instance: PackingInstance) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "name": instance.name,
        "alpha": instance.alpha,
        "beta": instance.beta,
        "objective": instance.objective,
        "interleaving": instance.interleaving,
        "interference": instance.interference,
        "gpu_types": [{"name": t.name, "count": t.count} for t in instance.gpu_types],
        "jobs": [_job_dict(j, instance.type_names) for j in instance.jobs],
    }
