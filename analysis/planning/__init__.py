"""Kit of the ``planning`` family: CUCKOO's execution planning of formed groups (section 3.3.3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from packgap.analysis.kit import MAX_SIZE, SEED, Demo, FamilyKit, Generator, Option
from packgap.analysis.planning.methods import METHODS
from packgap.gpus import parse_gpu_types

GPU_TYPES = Option("gpu_types", str, "NAME:COUNT,... GPU mix (default: CUCKOO Table 7's).")


def _generate(opts: Mapping[str, Any]) -> Any:
    from packgap.instances.planning.generator import generate

    kwargs: dict[str, Any] = {}
    if "gpu_types" in opts:
        kwargs["gpu_types"] = parse_gpu_types(opts["gpu_types"])
    if "tardiness_weight" in opts:
        kwargs["tardiness_weight"] = opts["tardiness_weight"]
    return generate(opts["groups"], opts.get("seed", 0), **kwargs)


KIT = FamilyKit(
    name="planning",
    hub="packgap.planning",
    objective_unit="s",
    methods=METHODS,
    generators=(
        Generator(
            "planning",
            "groups with per-GPU-type times and eq. 15 deadlines (CUCKOO section 4.1)",
            "planning",
            _generate,
            (
                Option("groups", int, "Number of job groups.", minimum=1, maximum=MAX_SIZE),
                SEED,
                GPU_TYPES,
                Option("tardiness_weight", float, "Weight of tardiness in the objective.", minimum=0),
            ),
            required=("groups",),
            size_option="groups",
        ),
    ),
    demo=Demo(
        "CUCKOO execution planning (section 3.3.3): 8 formed groups on a scarce 3-GPU cluster",
        "planning",
        {"groups": 8, "gpu_types": "A800:1,RTX4090:2", "seed": 7},
        ("mchp", "fifo", "edf", "exact-milp"),
    ),
)
