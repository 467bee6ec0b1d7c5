"""Sharing instances: SJF-BSBF's cluster, jobs, per-model time model and interference ratios.

The cluster is ``nodes x gpus_per_node`` identical GPUs with ``gpu_memory_gb`` each; at most
``max_jobs_per_gpu`` jobs hold one GPU at a time (C of eq. 9, C = 2 in the paper). Each job
(Table I) arrives at ``arrival`` seconds, asks for ``gpus`` GPUs (G_j, gang), ``iterations``
(I_j) at the per-GPU batch ``batch`` (B_j), and trains ``model``. Every model has the
parameters of eqs. 3, 4 and 7 (:class:`ModelProfile`) and a memory footprint
``mem_base_gb + mem_per_sample_gb x b`` per worker: the paper gives no memory model (eqs. 3-7
model time only), so this linear one is ours. Interference ratios xi (eqs. 5-6) are given
per ordered model pair, ``xi(own model, partner's model)``, with ``default`` for pairs not
listed (one global xi, as in Fig. 6b, is ``default`` alone). ``preemption_overhead_s`` is the
no-progress time a preemptive policy pays each time it resumes a job (0 for the paper's
non-preemptive model; Tiresias is the only preemptive policy here).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from packgap.fields import Reader, join, raw_field
from packgap.gpus import check_cluster_size

SCHEMA = "packgap.sharing"
VERSION = 1


@dataclass(frozen=True)
class Cluster:
    nodes: int
    gpus_per_node: int
    gpu_memory_gb: float
    max_jobs_per_gpu: int = 2
    preemption_overhead_s: float = 0.0

    @property
    def gpus(self) -> int:
        return self.nodes * self.gpus_per_node


@dataclass(frozen=True)
class ModelProfile:
    """Eq. 3 ``t_comp(b) = comp_alpha + comp_beta b``, eq. 4 ``t_comm = comm_alpha +
    comm_beta M`` with M = ``message_mb``, eq. 7 overlap ``delta`` (>= 1) and memory."""

    name: str
    comp_alpha: float
    comp_beta: float
    comm_alpha: float
    comm_beta: float
    message_mb: float
    delta: float
    mem_base_gb: float
    mem_per_sample_gb: float


@dataclass(frozen=True)
class Interference:
    """xi per ordered (own model, partner model) pair; ``default`` for every other pair."""

    default: float
    pairs: Mapping[tuple[str, str], float] = field(default_factory=dict)
    source: str = ""

    def xi(self, own: str, partner: str) -> float:
        return self.pairs.get((own, partner), self.default)


@dataclass(frozen=True)
class Job:
    id: str
    arrival: float
    gpus: int
    iterations: int
    batch: int
    model: str

    @property
    def large(self) -> bool:
        """The paper's split (section VI-C): more than 4 GPUs is a large job."""
        return self.gpus > 4


@dataclass(frozen=True)
class SharingInstance:
    name: str
    cluster: Cluster
    models: Mapping[str, ModelProfile]
    interference: Interference
    jobs: tuple[Job, ...]
    source: str = ""

    def job_index(self) -> dict[str, int]:
        return {j.id: i for i, j in enumerate(self.jobs)}


def _cluster(r: Reader, value: Any) -> Cluster | None:
    keys = {"nodes": True, "gpus_per_node": True, "gpu_memory_gb": True}
    obj = r.obj(value, "cluster", {**keys, "max_jobs_per_gpu": False, "preemption_overhead_s": False})
    if obj is None or any(k not in obj for k in keys):
        return None
    nodes = r.number(obj["nodes"], "cluster.nodes", positive=True, integer=True)
    per = r.number(obj["gpus_per_node"], "cluster.gpus_per_node", positive=True, integer=True)
    mem = r.number(obj["gpu_memory_gb"], "cluster.gpu_memory_gb", positive=True)
    cap = r.number(obj.get("max_jobs_per_gpu", 2), "cluster.max_jobs_per_gpu", positive=True, integer=True)
    over = r.number(obj.get("preemption_overhead_s", 0.0), "cluster.preemption_overhead_s", minimum=0.0)
    if None in (nodes, per, mem, cap, over):
        return None
    check_cluster_size(r, nodes, per, "cluster.nodes")
    return Cluster(nodes, per, mem, cap, over)


_MODEL_NUMBERS = ("comp_alpha", "comp_beta", "comm_alpha", "comm_beta", "message_mb", "mem_base_gb")


def _model(r: Reader, value: Any, path: str) -> ModelProfile | None:
    names = ("name", *_MODEL_NUMBERS, "delta", "mem_per_sample_gb")
    obj = r.obj(value, path, dict.fromkeys(names, True))
    if obj is None or any(k not in obj for k in names):
        return None
    name = r.string(obj["name"], join(path, "name"))
    numbers = [r.number(obj[k], join(path, k), minimum=0.0) for k in _MODEL_NUMBERS]
    delta = r.number(obj["delta"], join(path, "delta"), minimum=1.0)
    per_sample = r.number(obj["mem_per_sample_gb"], join(path, "mem_per_sample_gb"), minimum=0.0)
    if name is None or delta is None or per_sample is None or None in numbers:
        return None
    ca, cb, ma, mb, msg, base = numbers
    if ca + cb <= 0:
        r.error(join(path, "comp_alpha"), "comp_alpha + comp_beta must be > 0 (an iteration takes time)")
        return None
    return ModelProfile(name, ca, cb, ma, mb, msg, delta, base, per_sample)


def _xi(r: Reader, value: Any, path: str) -> float | None:
    xi = r.number(value, path)
    if xi is not None and xi < 1.0:
        r.error(path, f"interference ratio xi must be >= 1 (sharing never speeds a job up), got {xi}")
        return None
    return xi


def _interference(r: Reader, value: Any, models: Mapping[str, ModelProfile]) -> Interference | None:
    obj = r.obj(value, "interference", {"default": True, "pairs": False, "source": False})
    if obj is None or "default" not in obj:
        return None
    default = _xi(r, obj["default"], "interference.default")
    pairs: dict[tuple[str, str], float] = {}

    def pair(v: Any, p: str) -> None:
        o = r.obj(v, p, {"model": True, "partner": True, "xi": True})
        if o is None or any(k not in o for k in ("model", "partner", "xi")):
            return
        own, partner = r.string(o["model"], join(p, "model")), r.string(o["partner"], join(p, "partner"))
        xi = _xi(r, o["xi"], join(p, "xi"))
        for key, name in (("model", own), ("partner", partner)):
            if name is not None and models and name not in models:
                r.error(join(p, key), f"no model profile {name!r} (known: {', '.join(sorted(models))})")
        if own is not None and partner is not None and xi is not None:
            if (own, partner) in pairs:
                r.error(p, f"pair ({own}, {partner}) given twice")
            pairs[(own, partner)] = xi

    r.items(obj.get("pairs", []), "interference.pairs", pair, nonempty=False)
    source = r.string(obj["source"], "interference.source") if "source" in obj else ""
    return None if default is None or source is None else Interference(default, pairs, source)


def _job(r: Reader, value: Any, path: str, cluster: Cluster | None, models: Mapping[str, ModelProfile]) -> Job | None:
    names = ("id", "arrival", "gpus", "iterations", "batch", "model")
    obj = r.obj(value, path, dict.fromkeys(names, True))
    if obj is None or any(k not in obj for k in names):
        return None
    jid = r.string(obj["id"], join(path, "id"))
    arrival = r.number(obj["arrival"], join(path, "arrival"), minimum=0.0)
    gpus = r.number(obj["gpus"], join(path, "gpus"), positive=True, integer=True)
    iterations = r.number(obj["iterations"], join(path, "iterations"), positive=True, integer=True)
    batch = r.number(obj["batch"], join(path, "batch"), positive=True, integer=True)
    model = r.string(obj["model"], join(path, "model"))
    if cluster is not None and gpus is not None and gpus > cluster.gpus:
        r.error(join(path, "gpus"), f"asks for {gpus} GPUs; the cluster has {cluster.gpus}")
    if model is not None and model not in models:
        r.error(join(path, "model"), f"no model profile {model!r} (known: {', '.join(sorted(models)) or 'none'})")
    elif model is not None and cluster is not None:
        m = models[model]
        if m.mem_base_gb + m.mem_per_sample_gb > cluster.gpu_memory_gb:
            r.error(
                join(path, "batch"),
                f"model {model!r} needs {m.mem_base_gb + m.mem_per_sample_gb:g} GB even at b = 1; "
                f"a GPU has {cluster.gpu_memory_gb:g} GB",
            )
    if None in (jid, arrival, gpus, iterations, batch, model):
        return None
    return Job(jid, arrival, gpus, iterations, batch, model)


def from_dict(document: Mapping[str, Any]) -> SharingInstance:
    r = Reader("sharing instance")
    keys = {"schema": True, "version": True, "name": True, "cluster": True, "models": True}
    doc = r.obj(document, "", {**keys, "interference": True, "jobs": True, "source": False})
    if doc is None or any(k not in doc for k in ("name", "cluster", "models", "interference", "jobs")):
        r.abort()
    name = r.string(doc["name"], "name")
    source = r.string(doc["source"], "source") if "source" in doc else ""
    cluster = _cluster(r, doc["cluster"])
    model_list = r.items(doc["models"], "models", lambda v, p: _model(r, v, p)) or []
    r.unique(raw_field(doc["models"], "name"), "models", "name")
    models = {m.name: m for m in model_list if m is not None}
    interference = _interference(r, doc["interference"], models)
    jobs = r.items(doc["jobs"], "jobs", lambda v, p: _job(r, v, p, cluster, models)) or []
    r.unique(raw_field(doc["jobs"], "id"), "jobs", "id")
    r.finish()
    assert cluster is not None and interference is not None
    return SharingInstance(name, cluster, models, interference, tuple(j for j in jobs if j), source)


def to_dict(instance: SharingInstance) -> dict[str, Any]:
    c, xi = instance.cluster, instance.interference
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "version": VERSION,
        "name": instance.name,
        "cluster": {
            "nodes": c.nodes,
            "gpus_per_node": c.gpus_per_node,
            "gpu_memory_gb": c.gpu_memory_gb,
            "max_jobs_per_gpu": c.max_jobs_per_gpu,
            "preemption_overhead_s": c.preemption_overhead_s,
        },
        "models": [
            {k: getattr(m, k) for k in ("name", *_MODEL_NUMBERS, "delta", "mem_per_sample_gb")}
            for m in instance.models.values()
        ],
        "interference": {
            "default": xi.default,
            "pairs": [{"model": a, "partner": b, "xi": v} for (a, b), v in sorted(xi.pairs.items())],
        }
        | ({"source": xi.source} if xi.source else {}),
        "jobs": [
            {"id": j.id, "arrival": j.arrival, "gpus": j.gpus, "iterations": j.iterations, "batch": j.batch}
            | {"model": j.model}
            for j in instance.jobs
        ],
    }
    if instance.source:
        document["source"] = instance.source
    return document
