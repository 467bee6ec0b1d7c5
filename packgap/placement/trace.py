"""Cluster traces for the round-based simulator: a cluster and the jobs arriving on it.

Schema ``packgap.cluster-trace`` v1. The scheduler and the placement policy are run
parameters (``packgap simulate --scheduler --placement``), not fields. ``replay`` names the
rules of the run: ``"paper"`` (PAL's semantics, the default) or ``"blox"`` (the PAL artifact
simulator's, blox-sim-inputs PROVENANCE.md: its extra untracked jobs, its binning and
tie-breaking readings; see ``packgap.analysis.placement.replay``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.fields import Reader, join, raw_field
from packgap.placement.simulator import Cluster, SimJob

SCHEMA = "packgap.cluster-trace"
VERSION = 1
REPLAYS = ("paper", "blox")


@dataclass(frozen=True)
class ClusterTrace:
    name: str
    cluster: Cluster
    jobs: tuple[SimJob, ...]
    round_length: float = 300.0
    replay: str = "paper"


def _job(r: Reader, value: Any, path: str, classes: tuple[str, ...]) -> SimJob | None:
    keys = {
        "id": True,
        "gpus": True,
        "submit_s": True,
        "work": True,
        "model": True,
        "job_class": True,
        "iter_time_s": True,
    }
    obj = r.obj(value, path, keys)
    if obj is None or any(k not in obj for k in keys):
        return None
    fields = (
        r.string(obj["id"], join(path, "id")),
        r.number(obj["gpus"], join(path, "gpus"), positive=True, integer=True),
        r.number(obj["submit_s"], join(path, "submit_s"), minimum=0.0),
        r.number(obj["work"], join(path, "work"), positive=True),
        r.string(obj["model"], join(path, "model")),
        r.string(obj["job_class"], join(path, "job_class"), choices=classes, data_choices=True),
        r.number(obj["iter_time_s"], join(path, "iter_time_s"), positive=True),
    )
    return None if any(f is None for f in fields) else SimJob(*fields)


def _cluster(r: Reader, value: Any) -> Cluster | None:
    keys = {"nodes": True, "gpus_per_node": True, "pm_scores": True, "locality_penalty": True}
    obj = r.obj(value, "cluster", keys)
    if obj is None or any(k not in obj for k in keys):
        return None
    nodes = r.number(obj["nodes"], "cluster.nodes", positive=True, integer=True)
    per_node = r.number(obj["gpus_per_node"], "cluster.gpus_per_node", positive=True, integer=True)
    penalty = r.number(obj["locality_penalty"], "cluster.locality_penalty", minimum=1.0)
    scores: dict[str, tuple[float, ...]] = {}
    if not isinstance(obj["pm_scores"], Mapping) or not obj["pm_scores"]:
        r.error("cluster.pm_scores", "expected an object class -> list of per-GPU scores")
        return None
    for cls, values in obj["pm_scores"].items():
        path = join("cluster.pm_scores", cls)
        read = r.items(values, path, lambda v, p: r.number(v, p, positive=True)) or []
        if nodes is not None and per_node is not None and len(read) != nodes * per_node:
            r.error(path, f"needs one score per GPU ({nodes * per_node}), got {len(read)}")
        scores[cls] = tuple(read)
    if nodes is None or per_node is None or penalty is None:
        return None
    return Cluster(nodes, per_node, tuple(sorted(scores)), scores, penalty)


def from_dict(document: Mapping[str, Any]) -> ClusterTrace:
    r = Reader("cluster trace")
    keys = {
        "schema": True,
        "version": True,
        "name": True,
        "cluster": True,
        "jobs": True,
        "round_length_s": False,
        "replay": False,
    }
    doc = r.obj(document, "", keys)
    if doc is None or any(k not in doc for k in ("name", "cluster", "jobs")):
        r.abort()
    name = r.string(doc["name"], "name")
    cluster = _cluster(r, doc["cluster"])
    classes = cluster.classes if cluster else ()
    jobs = r.items(doc["jobs"], "jobs", lambda v, p: _job(r, v, p, classes)) or []
    r.unique(raw_field(doc["jobs"], "id"), "jobs", "id")
    round_length = r.number(doc.get("round_length_s", 300.0), "round_length_s", positive=True)
    replay = r.string(doc.get("replay", "paper"), "replay", choices=REPLAYS)
    if cluster is not None:
        for i, job in enumerate(jobs):
            if job is not None and job.gpus > cluster.num_gpus:
                r.error(join(join("jobs", i), "gpus"), f"needs {job.gpus} GPUs; the cluster has {cluster.num_gpus}")
    r.finish()
    assert cluster is not None
    return ClusterTrace(name, cluster, tuple(j for j in jobs if j), round_length, replay)


def to_dict(trace: ClusterTrace) -> dict[str, Any]:
    c = trace.cluster
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "name": trace.name,
        "replay": trace.replay,
        "round_length_s": trace.round_length,
        "cluster": {
            "nodes": c.nodes,
            "gpus_per_node": c.gpus_per_node,
            "locality_penalty": c.locality_penalty,
            "pm_scores": {cls: list(c.pm_scores[cls]) for cls in c.classes},
        },
        "jobs": [
            {
                "id": j.id,
                "gpus": j.gpus,
                "submit_s": j.submit_time,
                "work": j.work,
                "model": j.model,
                "job_class": j.job_class,
                "iter_time_s": j.iter_time,
            }
            for j in trace.jobs
        ],
    }


def summary(trace: ClusterTrace) -> dict[str, Any]:
    return {
        "name": trace.name,
        "kind": "cluster-trace",
        "replay": trace.replay,
        "gpus": trace.cluster.num_gpus,
        "nodes": trace.cluster.nodes,
        "classes": list(trace.cluster.classes),
        "jobs": len(trace.jobs),
        "round_length_s": trace.round_length,
        "last_submit_s": max((j.submit_time for j in trace.jobs), default=0.0),
    }
