"""Reader of the Philly job summary ``philly/philly.csv`` (traces/philly/PROVENANCE.md).

The file is Pollux's OSDI'21 artifact summary of Microsoft's Philly trace (Jeon et al.,
ATC'19; CC BY 4.0), 82,247 jobs submitted 2017-09-04 .. 2017-12-22; the raw Philly log
itself (117,325 jobs, a Git-LFS object) was not obtainable. Columns:

* ``timestamp``: submit time, ``YYYY-MM-DD HH:MM:SS`` (read as UTC; only differences are used);
* ``duration``: run time in seconds (read as the standalone duration);
* ``num_gpus``: GPUs requested (1 .. 128);
* ``gpu_time`` (= duration x num_gpus): not used;
* ``cluster``: Philly virtual-cluster hash (15 VCs); ``vc`` keeps one of them.

Rows are not in time order in the file; readers sort by submit time (file order among ties).
Job ids are ``r<line>``. Pollux's own filter (duration >= 60 s, gpu_time < 1,000 GPU-h)
is not applied: every row is a job (7,654 rows run under 60 s).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from packgap.errors import PackgapError
from packgap.instances.csvfile import read_csv
from packgap.instances.packing.trace_records import CellReader, JobTrace, TraceRecord

COLUMNS = ("timestamp", "duration", "num_gpus", "cluster")


def _seconds(text: str) -> float | None:
    """POSIX seconds of a ``YYYY-MM-DD HH:MM:SS`` time read as UTC (``fromisoformat`` is 20x
    faster than ``strptime`` on the 82,247 rows; the shape check keeps it as strict)."""
    if len(text) != 19 or text[10] != " ":
        return None
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()
    except ValueError:
        return None


def read(path: Path, vc: str | None = None) -> JobTrace:
    """Every job of ``path`` (only those of virtual cluster ``vc`` when given)."""
    rows = read_csv(path, COLUMNS, "a Philly job summary (philly.csv)")
    if vc is not None and all(row["cluster"] != vc for _, row in rows):
        known = sorted({row["cluster"] for _, row in rows})
        raise PackgapError(f"{path}: no job of virtual cluster --vc {vc!r} (the file has {', '.join(known)})")
    cells = CellReader(path)
    records = []
    for line, row in rows:
        if vc is not None and row["cluster"] != vc:
            continue
        submit = _seconds(row["timestamp"])
        if submit is None:
            cells.error(line, "timestamp", f"{row['timestamp']!r} is not YYYY-MM-DD HH:MM:SS")
        duration = cells.number(line, "duration", row["duration"])
        gpus = cells.number(line, "num_gpus", row["num_gpus"], integer=True, minimum=1)
        if submit is not None and duration is not None and gpus is not None:
            records.append(TraceRecord(line, f"r{line}", submit, int(gpus), duration))
    return cells.trace("num_gpus", records)
