"""Append-only results store in embedded DuckDB (benchopt-style long rows).

One row per (instance digest, method, seed, parameters), written as soon as the cell
finishes, so an interrupted comparison resumes where it stopped and loses nothing. Each row
records the package, Python and platform versions next to the solver's.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import packgap
from packgap import jsonio
from packgap.errors import PackgapError
from packgap.result import SolveResult

_COLUMNS = """
    instance_digest VARCHAR, instance VARCHAR, family VARCHAR, method VARCHAR, seed BIGINT,
    params VARCHAR, status VARCHAR, objective DOUBLE, bound DOUBLE, gap DOUBLE,
    wall_s DOUBLE, solver VARCHAR, solver_version VARCHAR, packgap_version VARCHAR,
    python VARCHAR, platform VARCHAR, created VARCHAR, message VARCHAR, result VARCHAR,
    instance_summary VARCHAR, packgap_commit VARCHAR
"""
#: Result columns added after the first stores were written (issue 33: ``gap`` is the method's
#: gap to its own bound; ``certified_gap`` the one against every bound of its comparison, named
#: by ``bound_source``): an old store gains them on opening, its rows read NULL there.
_ADDED = ("certified_gap DOUBLE", "bound_source VARCHAR")


_REPRODUCTION_COLUMNS = """
    name VARCHAR, quick BOOLEAN, rows VARCHAR, seconds DOUBLE, packgap_version VARCHAR, python VARCHAR,
    platform VARCHAR, created VARCHAR, packgap_commit VARCHAR, params VARCHAR, source_digest VARCHAR
"""
#: Columns added after the first stores were written: old rows read NULL there, so they never match.
_REPRODUCTION_ADDED = ("params VARCHAR", "source_digest VARCHAR")
#: What :func:`source_digest` hashes: the package's code and its data files.
_SOURCE_SUFFIXES = (".py", ".json")


_NAMES = [column.split()[0] for column in [*_COLUMNS.split(","), *_ADDED]]


@dataclass(frozen=True)
class StoredRows:
    """A reproduction's stored rows and who computed them (the run section of REPRODUCTION.md)."""

    rows: list[dict[str, Any]]
    created: str
    commit: str
    version: str
    seconds: float


@functools.cache
def checkout_commit() -> str:
    """The git commit of this checkout (with ``-dirty`` for local changes), or "" outside git."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


@functools.cache
def source_digest() -> str:
    """SHA-256 of every .py and .json file of the installed package (layer folders included,
    through their links), by path relative to the package: a checkout and the wheel built from
    it agree, and any code change gives a new digest, so stored reproduction rows are never
    reused across a change. A commit with a dirty flag cannot say which local change made a row,
    and an installed wheel has no commit at all. Computed once per process."""
    root = Path(packgap.__file__).resolve().parent
    digest = hashlib.sha256()
    files = []
    for folder, dirs, names in os.walk(root, followlinks=True):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files += [Path(folder, n) for n in names if n.endswith(_SOURCE_SUFFIXES)]
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def instance_digest(document: dict[str, Any]) -> str:
    """SHA-256 of the canonical instance text: the same data gives the same key."""
    return hashlib.sha256(jsonio.dumps(document).encode()).hexdigest()


def params_key(result_params: dict[str, Any]) -> str:
    return json.dumps(result_params, sort_keys=True)


P = ParamSpec("P")
R = TypeVar("R")


def ends_on_ctrl_c(method: Callable[P, R]) -> Callable[P, R]:
    """Ctrl-C during a DuckDB statement ends as KeyboardInterrupt, as anywhere else.

    DuckDB's Python client answers SIGINT inside a statement by cancelling it and raising
    ``RuntimeError('Query interrupted')`` (or ``duckdb.InterruptException``); the pending
    KeyboardInterrupt is gone. Measured with duckdb 2.0.1 on a loop of point queries: 20 of 30
    interrupts came back that way, and the CLI exited 1 with a traceback instead of 130."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except Exception as exc:
            duckdb = sys.modules.get("duckdb")
            cancelled = isinstance(exc, RuntimeError) and str(exc) == "Query interrupted"
            if not (cancelled or (duckdb is not None and isinstance(exc, duckdb.InterruptException))):
                raise
            raise KeyboardInterrupt from None

    return wrapper


class ResultStore:
    @ends_on_ctrl_c
    def __init__(self, path: Path) -> None:
        try:
            import duckdb
        except ImportError as exc:  # pragma: no cover - depends on the installation
            raise PackgapError(f"the results store needs duckdb: {exc}") from None
        try:
            self._db = duckdb.connect(str(path))
        except duckdb.Error as exc:
            raise PackgapError(f"cannot open results store {path}: {exc}") from None
        self._db.execute(f"CREATE TABLE IF NOT EXISTS results ({_COLUMNS})")
        found = [
            row[0]
            for row in self._db.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'results' "
                "ORDER BY ordinal_position"
            ).fetchall()
        ]
        expected = [column.split()[0] for column in _COLUMNS.split(",")]
        added = [column.split()[0] for column in _ADDED]
        if found[: len(expected)] != expected or not set(found[len(expected) :]) <= set(added):
            self._db.close()
            raise PackgapError(
                f"{path}: not a results store of packgap {packgap.__version__} "
                f"(its results table has the columns {', '.join(found)})"
            )
        for column in _ADDED:
            self._db.execute(f"ALTER TABLE results ADD COLUMN IF NOT EXISTS {column}")
        self._db.execute(f"CREATE TABLE IF NOT EXISTS reproductions ({_REPRODUCTION_COLUMNS})")
        for column in _REPRODUCTION_ADDED:
            self._db.execute(f"ALTER TABLE reproductions ADD COLUMN IF NOT EXISTS {column}")

    @ends_on_ctrl_c
    def close(self) -> None:
        self._db.close()

    @ends_on_ctrl_c
    def find(self, digest: str, method: str, seed: int, params: str) -> SolveResult | None:
        row = self._db.execute(
            "SELECT result FROM results WHERE instance_digest = ? AND method = ? AND seed = ? "
            "AND params = ? ORDER BY created DESC LIMIT 1",
            [digest, method, seed, params],
        ).fetchone()
        return None if row is None else SolveResult.from_dict(json.loads(row[0]))

    def results_of(self, digest: str) -> list[SolveResult]:
        """Every stored result on the instance ``digest``, oldest first."""
        rows = self._db.execute(
            "SELECT result FROM results WHERE instance_digest = ? ORDER BY created", [digest]
        ).fetchall()
        return [SolveResult.from_dict(json.loads(row[0])) for row in rows]

    @ends_on_ctrl_c
    def append(self, digest: str, result: SolveResult, summary: dict[str, Any] | None = None) -> None:
        """Append one finished cell; ``summary`` (the family's instance summary) lets reports
        group rows by instance size without reloading instances."""
        doc = result.to_dict()
        self._db.execute(
            f"INSERT INTO results ({', '.join(_NAMES)}) VALUES ({', '.join('?' * len(_NAMES))})",
            [
                digest,
                result.instance,
                result.family,
                result.method,
                result.seed,
                params_key(result.params),
                str(result.status),
                result.objective,
                result.bound,
                result.gap,
                result.wall_s,
                result.solver,
                result.solver_version,
                packgap.__version__,
                sys.version.split()[0],
                platform.platform(),
                datetime.now(UTC).isoformat(),
                result.message,
                json.dumps(doc, sort_keys=True),
                json.dumps(summary or {}, sort_keys=True),
                checkout_commit(),
                result.certified_gap,
                result.bound_source,
            ],
        )

    @ends_on_ctrl_c
    def find_reproduction(self, name: str, params: dict[str, Any], digest: str) -> StoredRows | None:
        """The latest rows stored for this reproduction, these parameters (quick flag, sizes,
        seeds) and this source digest, or None: rows of other code are never reused."""
        row = self._db.execute(
            "SELECT rows, created, packgap_commit, packgap_version, seconds FROM reproductions "
            "WHERE name = ? AND params = ? AND source_digest = ? ORDER BY created DESC LIMIT 1",
            [name, params_key(params), digest],
        ).fetchone()
        if row is None:
            return None
        return StoredRows(list(json.loads(row[0])), row[1], row[2] or "", row[3], row[4])

    @ends_on_ctrl_c
    def last_seconds(self, name: str, params: dict[str, Any]) -> float | None:
        """Seconds the latest computation of this reproduction and these parameters took, by any
        code (None: never computed here): ``figures --workers`` starts the longest first."""
        row = self._db.execute(
            "SELECT seconds FROM reproductions WHERE name = ? AND params = ? ORDER BY created DESC LIMIT 1",
            [name, params_key(params)],
        ).fetchone()
        return None if row is None else float(row[0])

    @ends_on_ctrl_c
    def append_reproduction(
        self, name: str, params: dict[str, Any], digest: str, rows: list[dict[str, Any]], seconds: float
    ) -> None:
        """Append a reproduction's computed rows, keyed by its parameters and the source digest
        (with the versions and commit that made them)."""
        self._db.execute(
            "INSERT INTO reproductions (name, quick, rows, seconds, packgap_version, python, platform, created, "
            "packgap_commit, params, source_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                name,
                bool(params.get("quick")),
                jsonio.dumps(rows),
                seconds,
                packgap.__version__,
                sys.version.split()[0],
                platform.platform(),
                datetime.now(UTC).isoformat(),
                checkout_commit(),
                params_key(params),
                digest,
            ],
        )

    @ends_on_ctrl_c
    def rows(self) -> list[dict[str, Any]]:
        cursor = self._db.execute("SELECT * FROM results ORDER BY created")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
