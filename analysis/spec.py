"""Sweeps described in a TOML file (``packgap sweep --spec FILE``).

::

    time_limit = 60          # seconds per exact method (optional)
    repetitions = 1          # runs per (instance, method), each with its own derived seed
    seed = 0                 # base of the per-run seeds

    [[generate]]             # instances from a generator: sizes x seeds
    generator = "planning"
    sizes = [4, 8, 12]
    seeds = [0, 1, 2]
    options = { gpu_types = "A800:1,RTX4090:2" }
    methods = ["mchp", "edf", "exact-cpsat"]     # or "all"

    [[trace]]                # one instance from a trace file
    builder = "muri"
    path = "muri/cluster_exp/cluster_trace.csv"
    options = { max_jobs = 10, gpu_types = "V100:16", seed = 1 }
    methods = "all"

    [params.mchp]            # method parameters, by method name
    deadline_weight = 1.0

Per-run seeds are derived by hashing (base seed, instance digest, method, repetition)
(benchopt), so adding an instance or a method never changes another cell's seed.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packgap.analysis import registry
from packgap.analysis.kit import check_options
from packgap.analysis.store import instance_digest
from packgap.analysis.sweep import Cell
from packgap.errors import PackgapError
from packgap.instances.traces import user_trace_file

_TOP = {"time_limit", "threads", "repetitions", "seed", "generate", "trace", "params", "traces"}


@dataclass(frozen=True)
class SweepSpec:
    cells: list[Cell]
    time_limit: float | None
    threads: int


def run_seed(base: int, digest: str, method: str, repetition: int) -> int:
    """A 31-bit seed from (base seed, instance, method, repetition)."""
    text = f"{base}:{digest}:{method}:{repetition}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big") >> 1


def _methods(family: str, value: Any, where: str) -> list[str]:
    if value == "all":
        return [m.name for m in registry.kit(family).methods]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PackgapError(f'{where}.methods: expected "all" or a list of method names')
    return [registry.method(family, v).name for v in value]


def _ints(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not value or not all(isinstance(v, int) and v >= 0 for v in value):
        raise PackgapError(f"{where}: expected a non-empty list of whole numbers >= 0")
    return value


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise PackgapError(f"{where}: expected a table")
    return dict(value)


def load_spec(path: Path) -> SweepSpec:
    """Read and check a sweep file; every problem names its key (``generate[1].sizes``)."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PackgapError(f"--spec {path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PackgapError(f"--spec {path}: not valid TOML: {exc}") from None
    unknown = sorted(set(doc) - _TOP)
    if unknown:
        raise PackgapError(f"--spec {path}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(_TOP))})")
    params = {name: _table(v, f"params.{name}") for name, v in _table(doc.get("params", {}), "params").items()}
    base, repetitions = doc.get("seed", 0), doc.get("repetitions", 1)
    if not isinstance(repetitions, int) or repetitions < 1:
        raise PackgapError("repetitions: expected a whole number >= 1")
    instances: list[tuple[str, dict[str, Any], list[str]]] = []
    for i, entry in enumerate(doc.get("generate", [])):
        where = f"generate[{i}]"
        entry = _table(entry, where)
        gen = registry.generator(str(entry.get("generator")))
        if gen.size_option is None:
            raise PackgapError(f"{where}.generator: {gen.name} has no size to sweep")
        opts = _table(entry.get("options", {}), f"{where}.options")
        methods = _methods(gen.target, entry.get("methods", "all"), where)
        for size in _ints(entry.get("sizes"), f"{where}.sizes"):
            for seed in _ints(entry.get("seeds", [0]), f"{where}.seeds"):
                given = check_options(gen.options, {**opts, gen.size_option: size, "seed": seed}, where)
                doc_ = registry.to_document(gen.target, gen.build(given))
                instances.append((gen.target, doc_, methods))
    for i, entry in enumerate(doc.get("trace", [])):
        where = f"trace[{i}]"
        entry = _table(entry, where)
        builder = registry.trace_builder(str(entry.get("builder")))
        opts = check_options(builder.options, _table(entry.get("options", {}), f"{where}.options"), where)
        methods = _methods(builder.target, entry.get("methods", "all"), where)
        built = builder.build(
            user_trace_file(Path(str(entry.get("path", ""))), doc.get("traces")), {**opts, "traces": doc.get("traces")}
        )
        instances.append((builder.target, registry.to_document(builder.target, built), methods))
    if not instances:
        raise PackgapError(f"--spec {path}: no [[generate]] or [[trace]] entry")
    cells = []
    for family, document, methods in instances:
        digest = instance_digest(document)
        for method in methods:
            for rep in range(repetitions):
                seed = run_seed(base, digest, method, rep)
                cells.append(Cell(family, document, method, seed, params.get(method, {})))
    return SweepSpec(cells, doc.get("time_limit"), doc.get("threads", 1))
