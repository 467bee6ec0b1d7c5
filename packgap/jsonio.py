"""Canonical JSON: sorted keys, shortest round-trip floats, so one seed gives one byte string.

Every instance and solution file names its ``schema`` and integer ``version``; the family
registry dispatches on that pair.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from packgap.errors import InstanceError, PackgapError, Problem


def _canonical(value: Any, path: str = "") -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise PackgapError(f"{path or 'value'}: cannot write non-finite number {value}")
        return 0.0 if value == 0 else value  # full precision (repr round-trips); -0.0 written as 0.0
    if isinstance(value, dict):
        return {str(k): _canonical(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v, f"{path}[{i}]") for i, v in enumerate(value)]
    raise TypeError(f"{path or 'value'}: cannot write {type(value).__name__} as JSON")


def dumps(document: Any) -> str:
    """Canonical text of an object or list: sorted keys, 2-space indent, full-precision floats,
    final newline. Numbers are rounded only on screen, never in files."""
    return json.dumps(_canonical(document), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write(document: dict[str, Any], path: Path) -> None:
    path.write_text(dumps(document), encoding="utf-8")


def read(path: Path) -> dict[str, Any]:
    """Parse a JSON object from ``path``; unreadable or malformed files raise InstanceError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InstanceError(str(path), [Problem("", f"cannot read file: {exc.strerror}")]) from None
    except UnicodeDecodeError as exc:
        problem = Problem("", f"not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})")
        raise InstanceError(str(path), [problem]) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstanceError(
            str(path), [Problem("", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")]
        ) from None
    except RecursionError:
        raise InstanceError(str(path), [Problem("", "JSON nested too deeply to read")]) from None
    except ValueError:  # json raises nothing else but for an integer over Python's digit limit
        limit = sys.get_int_max_str_digits()
        raise InstanceError(str(path), [Problem("", f"an integer of more than {limit:,} digits")]) from None
    if not isinstance(document, dict):
        raise InstanceError(str(path), [Problem("", "expected a JSON object at the top level")])
    return document
