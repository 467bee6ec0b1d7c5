"""Calibration workloads: a stream of jobs for the end-to-end runs of GIMBAL section 7.2.

A workload is what the base schedulers (Lucid, Gandiva, Gavel) place over time and GIMBAL
calibrates set by set: jobs with an arrival time (s), a Table 1 model, a world size, a global
batch, the training steps they need and an absolute deadline; the cluster (nodes x GPUs per
node, section 7.1: 2 A40s per node), the LGRR granularity and the throughput model with its
anchors (:mod:`packgap.calibration.instance`), so that every set formed during a run is a
valid calibration instance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.calibration.throughput import ThroughputModel, read_setting, setting_dict
from packgap.errors import Problem
from packgap.fields import Reader, join, raw_field

SCHEMA = "packgap.calibration-workload"
VERSION = 1


@dataclass(frozen=True)
class WorkloadJob:
    id: str
    model: str
    world_size: int
    batch: int
    steps: float
    arrival: float
    deadline: float


@dataclass(frozen=True)
class Workload:
    name: str
    source: str
    nodes: int
    gpus_per_node: int
    granularity: float
    throughput: ThroughputModel
    jobs: tuple[WorkloadJob, ...]

    @property
    def gpu_count(self) -> int:
        return self.nodes * self.gpus_per_node


def _job(r: Reader, value: Any, path: str) -> WorkloadJob | None:
    keys = ("id", "model", "world_size", "batch", "steps", "arrival", "deadline")
    obj = r.obj(value, path, dict.fromkeys(keys, True))
    if obj is None or any(k not in obj for k in keys):
        return None
    jid = r.string(obj["id"], join(path, "id"))
    model = r.string(obj["model"], join(path, "model"))
    size = r.number(obj["world_size"], join(path, "world_size"), positive=True, integer=True)
    batch = r.number(obj["batch"], join(path, "batch"), positive=True, integer=True)
    steps = r.number(obj["steps"], join(path, "steps"), positive=True)
    arrival = r.number(obj["arrival"], join(path, "arrival"), minimum=0.0)
    deadline = r.number(obj["deadline"], join(path, "deadline"), minimum=0.0)
    fields = (jid, model, size, batch, steps, arrival, deadline)
    return None if any(f is None for f in fields) else WorkloadJob(jid, model, size, batch, steps, arrival, deadline)


def from_dict(document: Mapping[str, Any]) -> Workload:
    """Read a workload; every problem (models without anchors, jobs larger than the cluster) at once."""
    r = Reader("calibration workload")
    keys = {"schema": True, "version": True, "name": True, "source": True, "granularity": False}
    keys |= {"cluster": True, "throughput": True, "jobs": True}
    doc = r.obj(document, "", keys)
    if doc is None or any(k not in doc for k in ("name", "source", "cluster", "throughput", "jobs")):
        r.abort()
    name = r.string(doc["name"], "name")
    source = r.string(doc["source"], "source")
    setting = read_setting(r, doc)
    jobs = r.items(doc["jobs"], "jobs", lambda v, p: _job(r, v, p)) or []
    r.unique(raw_field(doc["jobs"], "id"), "jobs", "id")
    r.finish()
    assert name is not None and source is not None and setting is not None
    granularity, nodes, per_node, throughput = setting
    known = {m.name for m in throughput.models}
    for i, job in enumerate(j for j in jobs if j is not None):
        if job.model not in known:
            r.problems.append(Problem(join(join("jobs", i), "model"), f"no speed data for model {job.model!r}"))
        if job.world_size > nodes * per_node:
            r.problems.append(
                Problem(join(join("jobs", i), "world_size"), f"{job.world_size} GPUs > cluster's {nodes * per_node}")
            )
    r.finish()
    return Workload(name, source, nodes, per_node, granularity, throughput, tuple(j for j in jobs if j))


def to_dict(workload: Workload) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "name": workload.name,
        "source": workload.source,
        **setting_dict(workload.granularity, workload.nodes, workload.gpus_per_node, workload.throughput),
        "jobs": [
            {
                "id": j.id,
                "model": j.model,
                "world_size": j.world_size,
                "batch": j.batch,
                "steps": j.steps,
                "arrival": j.arrival,
                "deadline": j.deadline,
            }
            for j in workload.jobs
        ],
    }


def summary(workload: Workload) -> dict[str, Any]:
    sizes = [j.world_size for j in workload.jobs]
    return {
        "name": workload.name,
        "source": workload.source,
        "jobs": len(workload.jobs),
        "gpus": workload.gpu_count,
        "mean_gpus_per_job": sum(sizes) / max(1, len(sizes)),
        "last_arrival_s": max((j.arrival for j in workload.jobs), default=0.0),
        "models": sorted({j.model for j in workload.jobs}),
    }
