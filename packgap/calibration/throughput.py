"""The throughput block of calibration documents: model anchors, pair speeds, alpha, sources.

Job sets (:mod:`packgap.calibration.instance`) and workloads
(:mod:`packgap.calibration.workload`) both carry it, with the cluster and the LGRR
granularity, so that every number the model uses travels with the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.fields import Reader, join, raw_field
from packgap.gpus import check_cluster_size

DEFAULT_GRANULARITY = 10.0


@dataclass(frozen=True)
class ModelProfile:
    """Anchors of one model's worker: solo step time at ``b`` samples is ``fixed_cost + b / speed``.

    ``utilization`` (%) is the solo GPU utilisation; the model takes it as the MPS share
    beyond which the worker gets no faster (the cap of :func:`~packgap.calibration.speed.share_factor`).
    """

    name: str
    speed: float
    fixed_cost: float
    utilization: float
    source: str


@dataclass(frozen=True)
class PairSpeed:
    """Speed of ``model`` co-located with ``partner`` under free competition (1.0 = alone)."""

    model: str
    partner: str
    speed: float
    source: str


@dataclass(frozen=True)
class ThroughputModel:
    """The parametric LGRR model: ``alpha`` is the concavity exponent of the share factor."""

    alpha: float
    models: tuple[ModelProfile, ...]
    pairs: tuple[PairSpeed, ...]
    source: str

    def profile(self, name: str) -> ModelProfile:
        return next(m for m in self.models if m.name == name)

    def pair_speed(self, model: str, partner: str) -> float:
        return next(p.speed for p in self.pairs if p.model == model and p.partner == partner)


def _profile(r: Reader, value: Any, path: str) -> ModelProfile | None:
    keys = {"name": True, "speed": True, "fixed_cost": True, "utilization": True, "source": True}
    obj = r.obj(value, path, keys)
    if obj is None or any(k not in obj for k in keys):
        return None
    name = r.string(obj["name"], join(path, "name"))
    speed = r.number(obj["speed"], join(path, "speed"), positive=True)
    cost = r.number(obj["fixed_cost"], join(path, "fixed_cost"), minimum=0.0)
    util = r.number(obj["utilization"], join(path, "utilization"), positive=True)
    if util is not None and util > 100:
        r.error(join(path, "utilization"), f"must be <= 100 (a percentage), got {util}")
        util = None
    source = r.string(obj["source"], join(path, "source"))
    fields = (name, speed, cost, util, source)
    return None if any(f is None for f in fields) else ModelProfile(name, speed, cost, util, source)


def _pair(r: Reader, value: Any, path: str) -> PairSpeed | None:
    keys = {"model": True, "partner": True, "speed": True, "source": True}
    obj = r.obj(value, path, keys)
    if obj is None or any(k not in obj for k in keys):
        return None
    model = r.string(obj["model"], join(path, "model"))
    partner = r.string(obj["partner"], join(path, "partner"))
    speed = r.number(obj["speed"], join(path, "speed"), positive=True)
    source = r.string(obj["source"], join(path, "source"))
    fields = (model, partner, speed, source)
    return None if any(f is None for f in fields) else PairSpeed(model, partner, speed, source)


def read_throughput(r: Reader, value: Any, path: str) -> ThroughputModel | None:
    """The ``throughput`` block (model anchors, pair speeds, alpha, source) of a calibration document."""
    keys = {"alpha": True, "models": True, "pairs": True, "source": True}
    obj = r.obj(value, path, keys)
    if obj is None or any(k not in obj for k in keys):
        return None
    alpha = r.number(obj["alpha"], join(path, "alpha"), positive=True)
    if alpha is not None and alpha > 1:
        r.error(join(path, "alpha"), f"must be <= 1 (the share factor is concave), got {alpha}")
        alpha = None
    models = r.items(obj["models"], join(path, "models"), lambda v, p: _profile(r, v, p)) or []
    r.unique(raw_field(obj["models"], "name"), join(path, "models"), "name")
    pairs = r.items(obj["pairs"], join(path, "pairs"), lambda v, p: _pair(r, v, p), nonempty=False) or []
    keys_seen = [(p.model, p.partner) if p is not None else None for p in pairs]
    r.unique(keys_seen, join(path, "pairs"), "model/partner")
    source = r.string(obj["source"], join(path, "source"))
    if alpha is None or source is None:
        return None
    return ThroughputModel(alpha, tuple(m for m in models if m), tuple(p for p in pairs if p), source)


def read_setting(r: Reader, doc: Mapping[str, Any]) -> tuple[float, int, int, ThroughputModel] | None:
    """Granularity, nodes, GPUs per node and throughput model, shared by job sets and workloads."""
    granularity = r.number(doc.get("granularity", DEFAULT_GRANULARITY), "granularity", positive=True)
    if granularity is not None and granularity > 100:
        r.error("granularity", f"must be in (0, 100] (a percentage), got {granularity}")
        granularity = None
    cluster = r.obj(doc["cluster"], "cluster", {"nodes": True, "gpus_per_node": True})
    nodes = per_node = None
    if cluster is not None and "nodes" in cluster and "gpus_per_node" in cluster:
        nodes = r.number(cluster["nodes"], "cluster.nodes", positive=True, integer=True)
        per_node = r.number(cluster["gpus_per_node"], "cluster.gpus_per_node", positive=True, integer=True)
        check_cluster_size(r, nodes, per_node, "cluster.nodes")
    throughput = read_throughput(r, doc["throughput"], "throughput")
    if granularity is None or nodes is None or per_node is None or throughput is None:
        return None
    return granularity, nodes, per_node, throughput


def setting_dict(granularity: float, nodes: int, gpus_per_node: int, tm: ThroughputModel) -> dict[str, Any]:
    return {
        "granularity": granularity,
        "cluster": {"nodes": nodes, "gpus_per_node": gpus_per_node},
        "throughput": throughput_dict(tm),
    }


def throughput_dict(tm: ThroughputModel) -> dict[str, Any]:
    return {
        "alpha": tm.alpha,
        "source": tm.source,
        "models": [
            {
                "name": m.name,
                "speed": m.speed,
                "fixed_cost": m.fixed_cost,
                "utilization": m.utilization,
                "source": m.source,
            }
            for m in tm.models
        ],
        "pairs": [{"model": p.model, "partner": p.partner, "speed": p.speed, "source": p.source} for p in tm.pairs],
    }
