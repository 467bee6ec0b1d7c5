"""GPU types shared by every family with typed GPUs (planning, packing, sharing, ...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from packgap.errors import PackgapError
from packgap.fields import Reader, join


@dataclass(frozen=True)
class GpuType:
    name: str
    count: int


def read_gpu_type(r: Reader, value: Any, path: str) -> GpuType | None:
    """One ``{"name", "count"}`` GPU type of an instance file."""
    obj = r.obj(value, path, {"name": True, "count": True})
    if obj is None or "name" not in obj or "count" not in obj:
        return None
    name = r.string(obj["name"], join(path, "name"))
    count = r.number(obj["count"], join(path, "count"), positive=True, integer=True)
    return None if name is None or count is None else GpuType(name, count)


def parse_gpu_types(text: str) -> tuple[tuple[str, int], ...]:
    """``"A800:2,RTX4090:8"`` -> (("A800", 2), ("RTX4090", 8)) (the ``--gpu-types`` option)."""
    pairs = []
    for item in text.split(","):
        name, _, count = item.strip().partition(":")
        if not name or not count.isdigit() or int(count) < 1:
            raise PackgapError(f"--gpu-types: expected NAME:COUNT with COUNT >= 1, got {item.strip()!r}")
        pairs.append((name, int(count)))
    return tuple(pairs)
