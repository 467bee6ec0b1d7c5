"""Calibration instances: one packed job set that GIMBAL coordinates (GIMBAL sections 4-5).

A job set is what a cluster scheduler hands GIMBAL: jobs already placed on GPUs, one worker
per GPU, at most two workers (of two jobs) on a GPU (section 5.1). Each job has a model, a
global batch ``batch`` (samples per training step, kept constant by LISS, section 4.1), the
steps it has left and a deadline. The instance also records the throughput model every
method and the evaluator use (:mod:`packgap.calibration.speed`): the per-model anchors
(solo speed, fixed step cost, solo GPU utilisation), the measured free-competition pair
speeds, the concavity exponent and where each number comes from, because GIMBAL publishes no
MPS curves and the model is an assumption that must travel with the data.

``granularity`` is the LGRR step of the cluster's MPS limits (section 4.1, default 10 %): a
share is one of 100, 100 - g, 100 - 2g, ... >= 0, moving down from free competition.
``objective`` names the local objective of section 5.2 the set is calibrated for (``jct``,
eq. 1; ``makespan``, eq. 5; ``deadline``, eq. 3 read as lateness); ``now`` is the time of
calibration, against which the absolute deadlines are measured.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.calibration.throughput import ThroughputModel, read_setting, setting_dict
from packgap.calibration.topology import data_problems, topology_problems
from packgap.fields import Reader, join, raw_field

SCHEMA = "packgap.calibration"
VERSION = 1
OBJECTIVES = ("jct", "makespan", "deadline")


@dataclass(frozen=True)
class Job:
    """A distributed job: one worker on each of ``gpus`` (global GPU indices)."""

    id: str
    model: str
    batch: int
    remaining_steps: float
    deadline: float
    gpus: tuple[int, ...]

    @property
    def world_size(self) -> int:
        return len(self.gpus)


@dataclass(frozen=True)
class CalibrationInstance:
    name: str
    objective: str
    now: float
    granularity: float
    nodes: int
    gpus_per_node: int
    throughput: ThroughputModel
    jobs: tuple[Job, ...]

    @property
    def gpu_count(self) -> int:
        return self.nodes * self.gpus_per_node

    def j_max(self) -> int:
        """Index of J_max, the job with the largest world size (section 5.1; ties: first listed)."""
        return max(range(len(self.jobs)), key=lambda i: (self.jobs[i].world_size, -i))

    def partners(self) -> dict[tuple[int, int], tuple[int, int] | None]:
        """(job, worker) -> (job, worker) of the co-located worker on the same GPU, or None."""
        on_gpu: dict[int, list[tuple[int, int]]] = {}
        for j, job in enumerate(self.jobs):
            for w, gpu in enumerate(job.gpus):
                on_gpu.setdefault(gpu, []).append((j, w))
        out: dict[tuple[int, int], tuple[int, int] | None] = {}
        for workers in on_gpu.values():
            for me in workers:
                others = [o for o in workers if o != me]
                out[me] = others[0] if others else None
        return out


def _job(r: Reader, value: Any, path: str) -> Job | None:
    keys = {"id": True, "model": True, "batch": True, "remaining_steps": True, "deadline": True, "gpus": True}
    obj = r.obj(value, path, keys)
    if obj is None or any(k not in obj for k in keys):
        return None
    jid = r.string(obj["id"], join(path, "id"))
    model = r.string(obj["model"], join(path, "model"))
    batch = r.number(obj["batch"], join(path, "batch"), positive=True, integer=True)
    steps = r.number(obj["remaining_steps"], join(path, "remaining_steps"), positive=True)
    deadline = r.number(obj["deadline"], join(path, "deadline"), minimum=0.0)
    gpus = r.items(obj["gpus"], join(path, "gpus"), lambda v, p: r.number(v, p, minimum=0, integer=True))
    fields = (jid, model, batch, steps, deadline)
    if gpus is None or None in gpus or any(f is None for f in fields):
        return None
    return Job(jid, model, batch, steps, deadline, tuple(gpus))


def from_dict(document: Mapping[str, Any]) -> CalibrationInstance:
    """Read a job set; every schema, data and topology problem is reported with its path."""
    r = Reader("calibration instance")
    keys = {
        "schema": True,
        "version": True,
        "name": True,
        "objective": True,
        "now": False,
        "granularity": False,
        "cluster": True,
        "throughput": True,
        "jobs": True,
    }
    doc = r.obj(document, "", keys)
    if doc is None or any(k not in doc for k in ("name", "objective", "cluster", "throughput", "jobs")):
        r.abort()
    name = r.string(doc["name"], "name")
    objective = r.string(doc["objective"], "objective", choices=OBJECTIVES)
    now = r.number(doc.get("now", 0.0), "now", minimum=0.0)
    setting = read_setting(r, doc)
    jobs = r.items(doc["jobs"], "jobs", lambda v, p: _job(r, v, p)) or []
    r.unique(raw_field(doc["jobs"], "id"), "jobs", "id")
    r.finish()
    assert name is not None and objective is not None and now is not None and setting is not None
    g, nodes, per_node, throughput = setting
    instance = CalibrationInstance(name, objective, now, g, nodes, per_node, throughput, tuple(j for j in jobs if j))
    for problem in (*data_problems(instance), *topology_problems(instance)):
        r.problems.append(problem)
    r.finish()
    return instance


def to_dict(instance: CalibrationInstance) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "name": instance.name,
        "objective": instance.objective,
        "now": instance.now,
        **setting_dict(instance.granularity, instance.nodes, instance.gpus_per_node, instance.throughput),
        "jobs": [
            {
                "id": j.id,
                "model": j.model,
                "batch": j.batch,
                "remaining_steps": j.remaining_steps,
                "deadline": j.deadline,
                "gpus": list(j.gpus),
            }
            for j in instance.jobs
        ],
    }
