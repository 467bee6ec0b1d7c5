"""GPU types shared by every family with typed GPUs (planning, packing, sharing, ...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from packgap.errors import PackgapError
from packgap.fields import Reader, join

#: Most GPUs in one instance, 36 times Summit's 27,648: methods and simulators keep state per
#: GPU (plans, clocks, holders), measured at 100-200 bytes a GPU (MCHP and EDF at 10^6 GPUs
#: peak at 170-240 MB), so far larger counts are typos that would end in a MemoryError.
MAX_GPUS = 1_000_000
#: Upper end of the per-GPU memory measured above, for the estimate in the message.
BYTES_PER_GPU = 200


def gpu_count_problem(count: int) -> str | None:
    """Why ``count`` GPUs are too many for one instance (with the memory they would take), or None."""
    if count <= MAX_GPUS:
        return None
    return (
        f"{count:,} GPUs would need about {count * BYTES_PER_GPU / 1e9:,.1f} GB of per-GPU state; "
        f"at most {MAX_GPUS:,} GPUs in one instance"
    )


def check_cluster_size(r: Reader, nodes: int | None, gpus_per_node: int | None, path: str) -> None:
    """Record a problem at ``path`` when a cluster of ``nodes x gpus_per_node`` GPUs is too large."""
    too_many = None if nodes is None or gpus_per_node is None else gpu_count_problem(nodes * gpus_per_node)
    if too_many is not None:
        r.error(path, f"{nodes:,} nodes x {gpus_per_node} GPUs: {too_many}")


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
    too_many = None if count is None else gpu_count_problem(count)
    if too_many is not None:
        r.error(join(path, "count"), too_many)  # the type stays, so its times are still checked
    return None if name is None or count is None else GpuType(name, count)


#: A GPU mix entry: (name, count) of a type the generator knows, or (name, count, factor)
#: with the type's speed factor given by the user (its meaning is the generator's).
GpuSpec = tuple[str, int] | tuple[str, int, float]


def parse_gpu_types(text: str) -> tuple[GpuSpec, ...]:
    """``"A800:2,H100:4:0.6"`` -> (("A800", 2), ("H100", 4, 0.6)) (the ``--gpu-types`` option)."""
    specs: list[GpuSpec] = []
    for item in text.split(","):
        name, _, rest = item.strip().partition(":")
        count, *factor = rest.split(":")
        if not name or not count.isdigit() or int(count) < 1 or len(factor) > 1:
            raise PackgapError(f"--gpu-types: expected NAME:COUNT[:FACTOR] with COUNT >= 1, got {item.strip()!r}")
        if any(spec[0] == name for spec in specs):
            raise PackgapError(
                f"--gpu-types: GPU type {name!r} given twice (give each type once, with its total count)"
            )
        too_many = gpu_count_problem(int(count))
        if too_many is not None:
            raise PackgapError(f"--gpu-types {item.strip()}: {too_many}")
        if not factor:
            specs.append((name, int(count)))
            continue
        try:
            value = float(factor[0])
        except ValueError:
            value = float("nan")
        if not 0 < value < 1e6:
            raise PackgapError(f"--gpu-types: FACTOR of {name} must be a positive number, got {factor[0]!r}")
        specs.append((name, int(count), value))
    return tuple(specs)


def type_factor(spec: GpuSpec, known: dict[str, float], meaning: str) -> float:
    """The factor a spec gives, or the generator's own for a type it knows; an unknown type
    without a factor is refused rather than given a made-up speed."""
    if len(spec) == 3:
        return spec[2]  # type: ignore[misc]
    if spec[0] not in known:
        raise PackgapError(
            f"--gpu-types: unknown GPU type {spec[0]!r} (known: {', '.join(known)}); "
            f"give its {meaning} as {spec[0]}:{spec[1]}:FACTOR"
        )
    return known[spec[0]]
