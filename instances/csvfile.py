"""CSV trace files read by every trace builder, with messages that name the file, the line,
the column and what was expected, never a ``KeyError`` or ``UnicodeDecodeError``.

:func:`read_csv` checks the header against the columns a builder needs (saying which kind of
file it expected, so a Muri CSV given to the Pollux builder says so) and every row's length
(a file cut mid-row names the first missing column); :func:`number`, :func:`whole` and :func:`iso_time`
convert one cell, naming it as ``FILE line N: column X``.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TextIO

from packgap.errors import PackgapError

Rows = list[tuple[int, dict[str, str]]]


@contextmanager
def opened(path: Path) -> Iterator[TextIO]:
    """``path`` open for reading text; unreadable or undecodable files become a :class:`PackgapError`."""
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            yield handle
    except OSError as exc:
        raise PackgapError(f"cannot read {path}: {exc.strerror}") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        # UTF-16 and binary files land here: name the encoding the readers take.
        raise PackgapError(f"{path}: not a UTF-8 CSV text file ({exc})") from None


def header(path: Path) -> list[str]:
    """The column names on the first line of a CSV file (empty for an empty file)."""
    with opened(path) as handle:
        return next(csv.reader(handle), [])


def read_csv(path: Path, columns: Sequence[str], expected: str, *, names: Sequence[str] | None = None) -> Rows:
    """``(line, row)`` of every data row; ``expected`` says what file the caller reads (``"a Muri
    trace CSV"``), ``names`` are the columns of a file without a header line.

    A missing column, a row with too few fields or an unreadable file is a :class:`PackgapError`.
    """
    with opened(path) as handle:
        reader = csv.DictReader(handle, fieldnames=names)
        found = list(reader.fieldnames or [])
        missing = [c for c in columns if c not in found]
        if missing:
            raise PackgapError(
                f"{path}: missing column{'s' * (len(missing) > 1)} {', '.join(map(repr, missing))} "
                f"(expected {expected} with columns {', '.join(columns)}; header: {','.join(found) or 'none'})"
            )
        rows = []
        for row in reader:
            if None in row:
                raise PackgapError(f"{path} line {reader.line_num}: more fields than the {len(found)} columns")
            short = [c for c in found if row[c] is None]
            if short:
                raise PackgapError(f"{path} line {reader.line_num}: column {short[0]}: missing (the row ends early)")
            rows.append((reader.line_num, row))
        return rows


def cell(path: Path, line: int, column: str) -> str:
    """How messages name one cell."""
    return f"{path} line {line}: column {column}"


def number(text: str, where: str) -> float:
    """A finite number from a cell named by ``where``."""
    try:
        value = float(text)
    except ValueError:
        raise PackgapError(f"{where}: expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise PackgapError(f"{where}: expected a finite number, got {text!r}")
    return value


def whole(text: str, where: str) -> int:
    """A whole number (``4`` or ``4.0``) from a cell named by ``where``."""
    value = number(text, where)
    if not value.is_integer():
        raise PackgapError(f"{where}: expected a whole number, got {text!r}")
    return int(value)


def iso_time(text: str, where: str) -> datetime:
    """A date and time such as ``2017-10-02 09:00:00`` from a cell or an option named by ``where``."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise PackgapError(
            f"{where}: expected an ISO date and time such as 2017-10-02 09:00:00, got {text!r}"
        ) from None
