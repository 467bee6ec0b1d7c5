"""Instance generators by family, with the options each accepts (for ``instances generate``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from instances import muri, pal_rounds, pal_sia, pal_synergy
from instances import packing as packing_gen
from instances import planning as planning_gen
from instances.traces import traces_dir
from packgap.errors import PackgapError, UnknownNameError
from packgap.placement.trace import to_dict as trace_to_dict
from packgap.registry import family


@dataclass(frozen=True)
class Generator:
    build: Callable[[Mapping[str, Any]], Any]
    options: tuple[str, ...]
    required: tuple[str, ...]
    size_option: str  # what ``packgap sweep --sizes`` varies
    target: str  # the family it builds instances of, or "cluster-trace"


def _planning(opts: Mapping[str, Any]) -> Any:
    kwargs: dict[str, Any] = {"groups": opts["groups"], "seed": opts["seed"]}
    if opts.get("gpu_types") is not None:
        kwargs["gpu_types"] = planning_gen.parse_gpu_types(opts["gpu_types"])
    if opts.get("tardiness_weight") is not None:
        kwargs["tardiness_weight"] = opts["tardiness_weight"]
    return planning_gen.generate(**kwargs)


def _packing(opts: Mapping[str, Any]) -> Any:
    kwargs: dict[str, Any] = {}
    if opts.get("gpu_types") is not None:
        kwargs["gpu_types"] = planning_gen.parse_gpu_types(opts["gpu_types"])
    return packing_gen.generate(opts["jobs"], opts["seed"], **kwargs)


def _synergy(opts: Mapping[str, Any]) -> Any:
    return pal_synergy.synergy_cluster_trace(
        opts["jobs"], opts.get("rate") or 10.0, opts["seed"], gpus=opts.get("gpus") or 256
    )


def _placement(opts: Mapping[str, Any]) -> Any:
    return pal_rounds.generate_round(opts["gpus"], opts["jobs"], opts["seed"])


GENERATORS: dict[str, Generator] = {
    "planning": Generator(
        _planning, ("groups", "seed", "gpu_types", "tardiness_weight"), ("groups",), "groups", "planning"
    ),
    "packing": Generator(_packing, ("jobs", "seed", "gpu_types"), ("jobs",), "jobs", "packing"),
    "placement": Generator(_placement, ("gpus", "jobs", "seed"), ("gpus", "jobs"), "jobs", "placement"),
    "synergy": Generator(_synergy, ("jobs", "seed", "rate", "gpus"), ("jobs",), "jobs", "cluster-trace"),
}


def generator(name: str) -> Generator:
    if name not in GENERATORS:
        raise UnknownNameError("generator", name, list(GENERATORS))
    return GENERATORS[name]


def to_document(target: str, value: Any) -> dict[str, Any]:
    """The file form of a generated or trace-built instance (or cluster trace)."""
    if target == "cluster-trace":
        return trace_to_dict(value)
    return family(target).instance_to_dict(value)


def generate(family: str, opts: Mapping[str, Any]) -> Any:
    """Build an instance; options the family does not take, or missing ones, fail loudly."""
    gen = generator(family)
    given = {k for k, v in opts.items() if v is not None}
    extra = sorted(given - set(gen.options))
    if extra:
        flags = ", ".join("--" + e.replace("_", "-") for e in extra)
        raise PackgapError(f"{family} generator does not take {flags}")
    missing = [r for r in gen.required if r not in given]
    if missing:
        raise PackgapError(f"{family} generator needs " + ", ".join("--" + m.replace("_", "-") for m in missing))
    return gen.build(opts)


def parse_ints(text: str, option: str) -> list[int]:
    """``"4,6,8"`` or ``"0-4"`` (inclusive) or a mix -> sorted unique integers."""
    values: set[int] = set()
    for part in text.split(","):
        lo, dash, hi = part.strip().partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise PackgapError(f"{option}: expected numbers like 4,6,8 or 0-4, got {part.strip()!r}")
        values.update(range(int(lo), int(hi) + 1) if dash else [int(lo)])
    return sorted(values)


def _muri(path: Path, opts: Mapping[str, Any]) -> Any:
    kwargs: dict[str, Any] = {"max_jobs": opts.get("max_jobs")}
    if opts.get("gpu_types") is not None:
        kwargs["gpu_types"] = planning_gen.parse_gpu_types(opts["gpu_types"])
    return muri.build(path, opts["seed"], **kwargs)


def _pal_sia(path: Path, opts: Mapping[str, Any]) -> Any:
    factors = opts.get("gpu_factors")
    return pal_sia.build_trace(
        path,
        gpu_factors=None if factors is None else Path(factors),
        replay=opts.get("replay") or "paper",
        seed=opts["seed"],
        traces=opts.get("traces"),
    )


@dataclass(frozen=True)
class TraceBuilder:
    family: str
    build: Callable[[Path, Mapping[str, Any]], Any]
    options: tuple[str, ...]
    description: str


TRACE_BUILDERS: dict[str, TraceBuilder] = {
    "muri": TraceBuilder(
        "packing", _muri, ("seed", "max_jobs", "gpu_types"), "Muri trace CSV -> packing instance (instances/muri.py)"
    ),
    "pal-sia": TraceBuilder(
        "cluster-trace",
        _pal_sia,
        ("seed", "gpu_factors", "replay", "traces"),
        "PAL Sia-Philly workload CSV -> cluster trace for `simulate` (instances/pal_sia.py)",
    ),
}


def from_trace(kind: str, path: Path, opts: Mapping[str, Any], traces: str | None = None) -> Any:
    """Build an instance from a trace file; a relative path not found here is looked up in the
    trace folder (``--traces``, ``$PACKGAP_TRACES`` or ``../shared/traces``)."""
    if kind not in TRACE_BUILDERS:
        raise UnknownNameError("trace kind", kind, list(TRACE_BUILDERS))
    builder = TRACE_BUILDERS[kind]
    extra = sorted(k for k, v in opts.items() if v is not None and k not in builder.options)
    if extra:
        raise PackgapError(f"from-trace {kind} does not take " + ", ".join("--" + e.replace("_", "-") for e in extra))
    if not path.exists() and not path.is_absolute():
        path = traces_dir(traces) / path
    if not path.is_file():
        raise PackgapError(f"trace file {path} does not exist")
    return builder.build(path, {**opts, "traces": traces})
