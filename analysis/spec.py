"""Sweeps described in a TOML file (``packgap sweep --spec FILE``).

::

    time_limit = 60          # seconds per exact method (optional)
    repetitions = 1          # runs per (instance, method), each with its own derived seed
    seed = 0                 # base of the per-run seeds
    solvers = ["highs", "scip"]  # LP / MILP solvers of the methods that take one (default: highs)

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

Every key and type is checked before any cell runs (``true`` is not a number), each message
naming the file and the key path: ``seed`` in [0, 2**31 - 1], ``threads`` in [1, 1024],
``repetitions`` in [1, 1000], ``[params.NAME]`` a method of the sweep with its own parameters,
``solvers`` names of :mod:`packgap.solvers.catalogue` (each installed): a method that takes a
solver runs once per solver, every other method once.

Per-run seeds are derived by hashing (base seed, instance digest, method, repetition)
(benchopt), so adding an instance or a method never changes another cell's seed.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packgap.analysis import registry
from packgap.analysis.kit import check_options
from packgap.analysis.store import instance_digest
from packgap.analysis.sweep import Cell
from packgap.errors import PackgapError
from packgap.fields import check_seed, check_threads, check_time_limit
from packgap.instances.traces import user_trace_file
from packgap.solvers import catalogue

_TOP = {"time_limit", "threads", "repetitions", "seed", "generate", "trace", "params", "traces", "solvers"}
_GENERATE = {"generator", "sizes", "seeds", "options", "methods"}
_TRACE = {"builder", "path", "options", "methods"}
#: Most runs per (instance, method): each is a full solve, so more is a typo, not a sweep.
MAX_REPETITIONS = 1000


@dataclass(frozen=True)
class SweepSpec:
    cells: list[Cell]
    time_limit: float | None
    threads: int


def run_seed(base: int, digest: str, method: str, repetition: int) -> int:
    """A 31-bit seed from (base seed, instance, method, repetition)."""
    text = f"{base}:{digest}:{method}:{repetition}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big") >> 1


@contextmanager
def _at(where: str) -> Iterator[None]:
    """Prefix the message of any packgap error raised inside with ``where`` (a key path)."""
    try:
        yield
    except PackgapError as exc:
        raise PackgapError(f"{where}: {exc}") from None


def _methods(family: str, value: Any, where: str) -> list[str]:
    if value == "all":
        return list(registry.methods(family))
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PackgapError(f'{where}.methods: expected "all" or a list of method names')
    with _at(f"{where}.methods"):
        return [registry.method(family, v).name for v in value]


def _ints(value: Any, where: str) -> list[int]:
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise PackgapError(f"{where}: expected a non-empty list of whole numbers >= 0")
    return value


def _table(value: Any, where: str, keys: set[str] | None = None) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise PackgapError(f"{where}: expected a table, got {type(value).__name__}")
    unknown = sorted(set(value) - keys) if keys is not None else []
    if unknown:
        raise PackgapError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(keys or ()))})")
    return dict(value)


def _name(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str):
        raise PackgapError(f"{where}.{key}: expected a name, got {value!r}")
    return value


def _entries(doc: Mapping[str, Any], key: str, keys: set[str]) -> list[dict[str, Any]]:
    """The ``[[key]]`` array of tables, each checked for unknown keys."""
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise PackgapError(f"{key}: expected an array of tables ([[{key}]])")
    return [_table(entry, f"{key}[{i}]", keys) for i, entry in enumerate(value)]


def _instances(doc: Mapping[str, Any], traces: str | None) -> list[tuple[str, dict[str, Any], list[str]]]:
    instances: list[tuple[str, dict[str, Any], list[str]]] = []
    for i, entry in enumerate(_entries(doc, "generate", _GENERATE)):
        where = f"generate[{i}]"
        name = _name(entry, "generator", where)
        with _at(f"{where}.generator"):
            gen = registry.generator(name)
        if gen.size_option is None:
            raise PackgapError(f"{where}.generator: {gen.name} has no size to sweep")
        opts = _table(entry.get("options", {}), f"{where}.options")
        methods = _methods(gen.target, entry.get("methods", "all"), where)
        for size in _ints(entry.get("sizes"), f"{where}.sizes"):
            for seed in _ints(entry.get("seeds", [0]), f"{where}.seeds"):
                with _at(where):
                    given = check_options(gen.options, {**opts, gen.size_option: size, "seed": seed}, "options")
                    doc_ = registry.to_document(gen.target, gen.build(given))
                instances.append((gen.target, doc_, methods))
    for i, entry in enumerate(_entries(doc, "trace", _TRACE)):
        where = f"trace[{i}]"
        name = _name(entry, "builder", where)
        with _at(f"{where}.builder"):
            builder = registry.trace_builder(name)
        file = Path(_name(entry, "path", where))
        with _at(where):
            opts = check_options(builder.options, _table(entry.get("options", {}), "options"), "options")
            built = builder.build(user_trace_file(file, traces), {**opts, "traces": traces})
        methods = _methods(builder.target, entry.get("methods", "all"), where)
        instances.append((builder.target, registry.to_document(builder.target, built), methods))
    return instances


def _solvers(value: Any) -> list[str]:
    """``solvers``: a non-empty list of distinct installed solver names."""
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise PackgapError(f"solvers: expected a list of solver names, got {value!r}")
    if len(set(value)) != len(value):
        raise PackgapError(f"solvers: {value!r} names a solver twice")
    for name in value:
        catalogue.check_name(name, "solver in solvers")
        catalogue.require(name)
    return list(value)


def _params(doc: Mapping[str, Any], instances: list[tuple[str, dict[str, Any], list[str]]]) -> dict[str, Any]:
    """``[params.METHOD]`` tables, each naming a method of the sweep and only its parameters."""
    chosen = {(family, m) for family, _, methods in instances for m in methods}
    params = {}
    for name, value in _table(doc.get("params", {}), "params").items():
        table = _table(value, f"params.{name}")
        families = sorted(family for family, m in chosen if m == name)
        if not families:
            known = ", ".join(sorted({m for _, m in chosen}))
            raise PackgapError(f"params.{name}: unknown method (known: {known})")
        with _at(f"params.{name}"):
            for family in families:
                registry.method(family, name).resolve_params(table)
        params[name] = table
    return params


def load_spec(path: Path) -> SweepSpec:
    """Read and check a sweep file; every problem names the file and its key (``s.toml: generate[1].sizes``)."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PackgapError(f"--spec {path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PackgapError(f"--spec {path}: not valid TOML: {exc}") from None
    with _at(str(path)):
        _table(doc, "spec", _TOP)
        time_limit = check_time_limit(doc.get("time_limit"), "time_limit")
        threads = check_threads(doc.get("threads", 1), "threads")
        base = check_seed(doc.get("seed", 0), "seed")
        repetitions = doc.get("repetitions", 1)
        if isinstance(repetitions, bool) or not isinstance(repetitions, int) or not 1 <= repetitions <= MAX_REPETITIONS:
            raise PackgapError(f"repetitions: expected a whole number in [1, {MAX_REPETITIONS}], got {repetitions!r}")
        traces = doc.get("traces")
        if traces is not None and not isinstance(traces, str):
            raise PackgapError(f"traces: expected a folder path (a string), got {traces!r}")
        instances = _instances(doc, traces)
        if not instances:
            raise PackgapError("no [[generate]] or [[trace]] entry")
        params = _params(doc, instances)
        solvers = _solvers(doc.get("solvers", [catalogue.DEFAULT]))
    cells = []
    for family, document, methods in instances:
        digest = instance_digest(document)
        for method in methods:
            takes = registry.method(family, method).solvers
            each: list[str | None] = [s for s in solvers if s in takes] or [None]
            for rep in range(repetitions):
                seed = run_seed(base, digest, method, rep)
                for solver in each:
                    cells.append(Cell(family, document, method, seed, params.get(method, {}), solver))
    return SweepSpec(cells, time_limit, threads)
