"""Placement instances: one scheduling round of PAL (Jain et al., sections III-B and III-C).

A cluster of ``nodes`` x ``gpus_per_node`` GPUs; GPU ``g`` sits on node ``g // gpus_per_node``.
Every GPU has one PM-score per job class: its iteration time normalised to the median GPU
(section III-B; > 1 = slower). A job spread over more than one node pays the locality
penalty ``L_across`` (eq. 1), global or per model (section IV-D). The round's jobs are the
ones the scheduler must serve now, in queue order; GPUs held by sticky jobs are unavailable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from packgap.fields import Reader, join, raw_field

SCHEMA = "packgap.placement"
VERSION = 1

#: ``slowdown``: sum of L x max V over jobs; ``work``: the same weighted by remaining work.
OBJECTIVES = ("slowdown", "work")


@dataclass(frozen=True)
class Job:
    """A job to place this round: ``gpus`` is its gang demand, ``work`` its remaining work."""

    id: str
    gpus: int
    job_class: str
    model: str
    work: float = 1.0


@dataclass(frozen=True)
class PlacementInstance:
    """One scheduling round. ``pm_scores[c][g]`` is GPU ``g``'s PM-score for class ``c``.

    ``classes`` lists the job classes from most to least variability-sensitive (A, B, C in
    section III-A), which is PM-First's placement priority.
    """

    name: str
    nodes: int
    gpus_per_node: int
    classes: tuple[str, ...]
    pm_scores: Mapping[str, tuple[float, ...]]
    locality_penalty: float
    jobs: tuple[Job, ...]
    unavailable: frozenset[int] = frozenset()
    model_penalties: Mapping[str, float] = field(default_factory=dict)
    objective: str = "slowdown"

    @property
    def num_gpus(self) -> int:
        return self.nodes * self.gpus_per_node

    def node_of(self, gpu: int) -> int:
        return gpu // self.gpus_per_node

    def free_gpus(self) -> list[int]:
        return [g for g in range(self.num_gpus) if g not in self.unavailable]

    def penalty(self, job: Job) -> float:
        """``L_across`` for this job's model (section IV-D), else the global one."""
        return self.model_penalties.get(job.model, self.locality_penalty)

    def weight(self, job: Job) -> float:
        return job.work if self.objective == "work" else 1.0

    def job_index(self) -> dict[str, int]:
        return {j.id: i for i, j in enumerate(self.jobs)}


def _job(r: Reader, value: Any, path: str, classes: tuple[str, ...]) -> Job | None:
    keys = {"id": True, "gpus": True, "class": True, "model": True, "work": False}
    obj = r.obj(value, path, keys)
    if obj is None or any(k not in obj for k in ("id", "gpus", "class", "model")):
        return None
    jid = r.string(obj["id"], join(path, "id"))
    gpus = r.number(obj["gpus"], join(path, "gpus"), positive=True, integer=True)
    cls = r.string(obj["class"], join(path, "class"), choices=classes, data_choices=True)
    model = r.string(obj["model"], join(path, "model"))
    work = r.number(obj["work"], join(path, "work"), minimum=0.0) if "work" in obj else 1.0
    if None in (jid, gpus, cls, model, work):
        return None
    return Job(jid, gpus, cls, model, work)


def _scores(r: Reader, value: Any, classes: tuple[str, ...], n: int) -> dict[str, tuple[float, ...]]:
    obj = r.obj(value, "pm_scores", dict.fromkeys(classes, True), data_keys=True)
    out: dict[str, tuple[float, ...]] = {}
    if obj is None:
        return out
    for c in classes:
        if c not in obj:
            continue
        path = join("pm_scores", c)
        vals = r.items(obj[c], path, lambda v, p: r.number(v, p, positive=True)) or []
        if len(vals) != n:
            r.error(path, f"needs one PM-score per GPU ({n}), got {len(vals)}")
        elif None not in vals:
            out[c] = tuple(vals)
    return out


def _model_penalties(r: Reader, value: Any) -> dict[str, float]:
    if not isinstance(value, Mapping):
        got = type(value).__name__
        r.error("model_penalties", f"expected an object model -> L_across, got {got}")
        return {}
    read = {m: r.number(v, join("model_penalties", m), minimum=1.0) for m, v in value.items()}
    return {m: v for m, v in read.items() if v is not None}


def _check_round(r: Reader, jobs: list[Job | None], n: int, unavailable: list[Any]) -> None:
    for i, g in enumerate(unavailable):
        if g is not None and g >= n:
            r.error(join("unavailable", i), f"GPU {g} does not exist (GPUs 0..{n - 1})")
    free = n - len({g for g in unavailable if g is not None and g < n})
    demand = sum(j.gpus for j in jobs if j is not None)
    if demand > free:
        r.error("jobs", f"the round's jobs need {demand} GPUs but only {free} are free")


def from_dict(document: Mapping[str, Any]) -> PlacementInstance:
    r = Reader("placement instance")
    keys = {
        "schema": True,
        "version": True,
        "name": True,
        "nodes": True,
        "gpus_per_node": True,
        "classes": True,
        "pm_scores": True,
        "locality_penalty": True,
        "jobs": True,
        "unavailable": False,
        "model_penalties": False,
        "objective": False,
    }
    doc = r.obj(document, "", keys)
    required = ("name", "nodes", "gpus_per_node", "classes", "pm_scores", "locality_penalty", "jobs")
    if doc is None or any(k not in doc for k in required):
        r.abort()
    name = r.string(doc["name"], "name")
    nodes = r.number(doc["nodes"], "nodes", positive=True, integer=True)
    per_node = r.number(doc["gpus_per_node"], "gpus_per_node", positive=True, integer=True)
    classes = r.items(doc["classes"], "classes", r.string) or []
    r.unique(classes, "classes", "name")
    class_names = tuple(c for c in classes if c is not None)
    n = nodes * per_node if nodes is not None and per_node is not None else 0
    scores = _scores(r, doc["pm_scores"], class_names, n)
    penalty = r.number(doc["locality_penalty"], "locality_penalty", minimum=1.0)
    jobs = r.items(doc["jobs"], "jobs", lambda v, p: _job(r, v, p, class_names), nonempty=False)
    jobs = jobs or []
    r.unique(raw_field(doc["jobs"], "id"), "jobs", "id")
    unavailable = r.items(
        doc.get("unavailable", []), "unavailable", lambda v, p: r.number(v, p, minimum=0, integer=True), nonempty=False
    )
    unavailable = unavailable or []
    r.unique(unavailable, "unavailable", "gpu")
    penalties = _model_penalties(r, doc.get("model_penalties", {}))
    objective = doc.get("objective", "slowdown")
    r.string(objective, "objective", choices=OBJECTIVES)
    _check_round(r, jobs, n, unavailable)
    r.finish()
    return PlacementInstance(
        name,
        nodes,
        per_node,
        class_names,
        scores,
        penalty,
        tuple(j for j in jobs if j),
        frozenset(unavailable),
        penalties,
        objective,
    )


def to_dict(instance: PlacementInstance) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "name": instance.name,
        "nodes": instance.nodes,
        "gpus_per_node": instance.gpus_per_node,
        "classes": list(instance.classes),
        "pm_scores": {c: list(instance.pm_scores[c]) for c in instance.classes},
        "locality_penalty": instance.locality_penalty,
        "model_penalties": dict(instance.model_penalties),
        "objective": instance.objective,
        "unavailable": sorted(instance.unavailable),
        "jobs": [
            {"id": j.id, "gpus": j.gpus, "class": j.job_class, "model": j.model, "work": j.work} for j in instance.jobs
        ],
    }
