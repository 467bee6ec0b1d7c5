"""The trace folders that carry jobs, by source name, and the reader each one needs.

One table for both families' trace builders (``packing-<source>`` and ``cluster-<source>``):
a source's reader turns a file into a :class:`~packgap.instances.packing.trace_records.JobTrace`,
which :mod:`packgap.instances.packing.from_trace` or :mod:`packgap.instances.placement.from_trace` maps.
The Lucid folder has no job list (its Helios-Venus file holds 10-minute aggregates), so it
is no source.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packgap.errors import UnknownNameError
from packgap.instances.packing import gavel, openb, philly, pollux, synergy_replay
from packgap.instances.packing.trace_records import JobTrace

SOURCES = ("philly", "gavel", "openb", "pollux", "sia", "synergy")


def read(source: str, path: Path, options: Mapping[str, Any]) -> JobTrace:
    """The jobs of ``path`` by ``source``'s reader; ``options`` are the builder's (``vc``,
    ``throughputs``, ``jobs_per_hour``, ``profiles``, ``seed``, ``traces``), absent = default."""
    if source == "philly":
        return philly.read(path, options.get("vc"))
    if source == "gavel":
        return gavel.read(
            path,
            throughputs=options.get("throughputs"),
            traces=options.get("traces"),
            jobs_per_hour=options.get("jobs_per_hour"),
            seed=options.get("seed", 0),
        )
    if source == "openb":
        return openb.read(path)
    if source in ("pollux", "sia"):
        return pollux.read(path, pollux.profiles_dir(source, options.get("profiles"), options.get("traces")))
    if source == "synergy":
        return synergy_replay.read(path)
    raise UnknownNameError("trace source", source, SOURCES)
