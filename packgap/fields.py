"""Field-by-field checking of JSON documents that reports every problem with its path.

A :class:`Reader` walks a parsed JSON value, converts fields to Python types and records a
:class:`~packgap.errors.Problem` for each bad one instead of stopping at the first, so a
researcher fixing a file sees the whole list at once (``jobs[3].deadline: ...``).

Inside :func:`recording`, every check a Reader makes is also noted (kind, path, rule): the JSON
Schema of each document kind is built from these notes (``packgap schema``), so the schema is
what the readers accept and cannot drift from them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

from packgap.errors import InstanceError, PackgapError, Problem

T = TypeVar("T")

#: Largest magnitude of any number in a data file: 10^12 s is 31,700 years, and times scaled
#: to 1 us ticks (CP-SAT) still fit a 64-bit integer with room to add them up.
MAX_ABS = 1e12

#: Marker returned in place of a bad value; callers build nothing from it.
_BAD: Any = None


@dataclass(frozen=True)
class Note:
    """One check of a Reader: ``kind`` object, number, string, boolean or array, at ``path``
    (list indices kept), with its ``rule`` (an object's keys, a number's bounds, ...)."""

    kind: str
    path: str
    rule: Mapping[str, Any] = field(default_factory=dict)


_NOTES: ContextVar[list[Note] | None] = ContextVar("packgap_reader_notes", default=None)


@contextmanager
def recording() -> Iterator[list[Note]]:
    """Note every check the Readers make inside the block (in this thread)."""
    notes: list[Note] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)


def _note(kind: str, path: str, **rule: Any) -> None:
    notes = _NOTES.get()
    if notes is not None:
        notes.append(Note(kind, path, rule))


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def raw_field(items: Any, key: str) -> list[Any]:
    """``item[key]`` of each element of a raw JSON list (None where absent), for uniqueness checks
    that must see entries even when another of their fields is bad."""
    if not isinstance(items, list):
        return []
    return [item.get(key) if isinstance(item, Mapping) and isinstance(item.get(key), str) else None for item in items]


class Reader:
    """Collects problems while reading fields; :meth:`finish` raises if any were found."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.problems: list[Problem] = []

    def error(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def finish(self) -> None:
        if self.problems:
            self.abort()

    def abort(self) -> NoReturn:
        raise InstanceError(self.what, self.problems)

    def obj(
        self, value: Any, path: str, keys: Mapping[str, bool], *, data_keys: bool = False
    ) -> Mapping[str, Any] | None:
        """Check that ``value`` is an object whose keys are among ``keys`` (name -> required);
        ``data_keys``: the keys are names the document defines (GPU types, job classes), so its
        schema is a map of such names to values."""
        if data_keys:
            _note("map", path)
        else:
            nulls = sorted(k for k, v in value.items() if v is None) if isinstance(value, Mapping) else []
            _note("object", path, keys=dict(keys), nulls=nulls)
        if not isinstance(value, Mapping):
            self.error(path, f"expected an object, got {type(value).__name__}")
            return None
        for key in value:
            if key not in keys:
                self.error(join(path, key), f"unknown field (known: {', '.join(sorted(keys))})")
        for key, required in keys.items():
            if required and key not in value:
                self.error(join(path, key), "missing required field")
        return value

    def number(
        self,
        value: Any,
        path: str,
        *,
        minimum: float | None = None,
        positive: bool = False,
        integer: bool = False,
    ) -> Any:
        _note("number", path, minimum=minimum, positive=positive, integer=integer)
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.error(path, f"expected a number, got {type(value).__name__}")
            return _BAD
        if isinstance(value, float) and not math.isfinite(value):
            self.error(path, f"must be finite, got {value}")
            return _BAD
        if abs(value) > MAX_ABS:
            self.error(path, f"must lie within +-{MAX_ABS:g} (what the evaluators represent exactly), got {value}")
            return _BAD
        if integer and not float(value).is_integer():
            self.error(path, f"must be a whole number, got {value}")
            return _BAD
        if positive and value <= 0:
            self.error(path, f"must be > 0, got {value}")
            return _BAD
        if minimum is not None and value < minimum:
            self.error(path, f"must be >= {minimum}, got {value}")
            return _BAD
        return int(value) if integer else float(value)

    def string(
        self, value: Any, path: str, *, choices: tuple[str, ...] | None = None, data_choices: bool = False
    ) -> Any:
        """A non-empty string, one of ``choices`` if given (``data_choices``: names the document
        defines, so the schema lists none)."""
        _note("string", path, choices=None if data_choices else choices)
        if not isinstance(value, str) or not value:
            self.error(path, f"expected a non-empty string, got {value!r}")
            return _BAD
        if choices is not None and value not in choices:
            self.error(path, f"must be one of {', '.join(choices)}, got {value!r}")
            return _BAD
        return value

    def items(self, value: Any, path: str, read: Callable[[Any, str], T], *, nonempty: bool = True) -> list[T] | None:
        """Read every element of a list with ``read(element, element_path)``."""
        _note("array", path, nonempty=nonempty)
        if not isinstance(value, list):
            self.error(path, f"expected a list, got {type(value).__name__}")
            return None
        if nonempty and not value:
            self.error(path, "must not be empty")
        return [read(v, join(path, i)) for i, v in enumerate(value)]

    def boolean(self, value: Any, path: str) -> Any:
        _note("boolean", path)
        if not isinstance(value, bool):
            self.error(path, f"expected true or false, got {value!r}")
            return _BAD
        return value

    def unique(self, names: list[Any], path: str, field: str) -> None:
        """Report every repeated ``field`` value among list elements (None entries skipped)."""
        seen: dict[Any, int] = {}
        for i, name in enumerate(names):
            if name is None:
                continue
            if name in seen:
                self.error(join(join(path, i), field), f"duplicate {name!r} (first at index {seen[name]})")
            else:
                seen[name] = i


# One function per rule for the solver settings, shared by the CLI, sweep specs and the Python
# API; each names the argument or field (``name``) it checks.

#: Largest seed: CP-SAT's ``random_seed`` and HiGHS's ``random_seed`` are 32-bit signed integers.
MAX_SEED = 2**31 - 1

#: Most solver threads: CP-SAT starts one worker per thread, far more than any machine has cores.
MAX_THREADS = 1024


def _whole(value: object, name: str, low: int, high: int, why: str = "") -> int:
    # bool is an int subclass in Python, but ``seed = true`` is a mistake, never a seed.
    if isinstance(value, bool) or not isinstance(value, int):
        raise PackgapError(f"{name}: expected a whole number, got {type(value).__name__} {value!r}")
    if not low <= value <= high:
        raise PackgapError(f"{name}: must lie in [{low}, {high}]{why}, got {value}")
    return value


def check_seed(value: object, name: str = "seed") -> int:
    """A seed in ``[0, 2**31 - 1]``, the range CP-SAT and HiGHS accept."""
    return _whole(value, name, 0, MAX_SEED, " (CP-SAT and HiGHS take 32-bit seeds)")


def check_threads(value: object, name: str = "threads") -> int:
    """Solver threads in ``[1, 1024]``."""
    return _whole(value, name, 1, MAX_THREADS)


def check_time_limit(value: object, name: str = "time_limit") -> float | None:
    """None (no limit) or a positive, finite number of seconds."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PackgapError(f"{name}: expected a number of seconds, got {type(value).__name__} {value!r}")
    if not (0 < value <= MAX_ABS):
        raise PackgapError(f"{name}: must be a positive number of seconds up to {MAX_ABS:g}, got {value}")
    return float(value)
