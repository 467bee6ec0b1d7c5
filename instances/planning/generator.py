"""Seeded generator of planning instances (CUCKOO section 3.3.3 planning, section 4.1 setup).

Group base times are log-normal around one hour (the paper's jobs run for hours); a group's
time on a GPU type is its base time times the type's slowdown and a per-group factor
U(0.8, 1.2), since heterogeneity differs by model. Deadlines follow eq. 15 with arrival 0:
deadline / fastest time ~ N(8, 2), floored at 1 so no group is late even when alone.
Times and deadlines are whole seconds, which keeps every exact method on one grid.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from packgap.errors import PackgapError
from packgap.gpus import GpuSpec, GpuType, type_factor
from packgap.planning import Group, PlanningInstance

#: Slowdown of each default GPU type against the A800 (CUCKOO Table 7's GPU mix).
TYPE_SLOWDOWN = {"A800": 1.0, "RTX4090": 1.4, "A10": 2.2}
#: CUCKOO Table 7: A800 x2, RTX 4090 x8 (one node each) and A10 x2 per node on 3 nodes.
DEFAULT_GPU_TYPES = (("A800", 2), ("RTX4090", 8), ("A10", 6))


def generate(
    groups: int,
    seed: int,
    gpu_types: Sequence[GpuSpec] = DEFAULT_GPU_TYPES,
    tardiness_weight: float = 1.0,
    base_time_median_s: float = 3600.0,
) -> PlanningInstance:
    if groups < 1:
        raise PackgapError(f"--groups must be >= 1, got {groups}")
    if tardiness_weight < 0:
        raise PackgapError(f"--tardiness-weight must be >= 0, got {tardiness_weight}")
    rng = np.random.default_rng(seed)
    slowdown = np.array([type_factor(spec, TYPE_SLOWDOWN, "slowdown against the A800") for spec in gpu_types])
    base = rng.lognormal(np.log(base_time_median_s), 0.6, size=groups)
    spread = rng.uniform(0.8, 1.2, size=(groups, len(gpu_types)))
    times = np.maximum(1.0, np.round(base[:, None] * slowdown[None, :] * spread))
    ratio = np.maximum(1.0, rng.normal(8.0, 2.0, size=groups))
    deadlines = np.round(ratio * times.min(axis=1))
    return PlanningInstance(
        name=f"planning-g{groups}-s{seed}",
        gpu_types=tuple(GpuType(spec[0], spec[1]) for spec in gpu_types),
        groups=tuple(
            Group(f"g{i}", tuple(float(t) for t in times[i]), float(deadlines[i]), (f"g{i}",)) for i in range(groups)
        ),
        tardiness_weight=tardiness_weight,
    )
