"""Kit of the ``packing`` family: CUCKOO's deadline-aware packing and planning (Muri as baseline)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from analysis.kit import MAX_SIZE, SEED, FamilyKit, Generator, Option, TraceBuilder, View
from analysis.packing.methods import METHODS
from analysis.packing.simulate import SIMULATION
from analysis.packing.views import packing_groups
from analysis.planning import GPU_TYPES
from packgap.gpus import parse_gpu_types
from packgap.packing import FAMILY


def _types(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {"gpu_types": parse_gpu_types(opts["gpu_types"])} if "gpu_types" in opts else {}


def _generate(opts: Mapping[str, Any]) -> Any:
    from instances.packing.generator import generate

    return generate(opts["jobs"], opts.get("seed", 0), **_types(opts))


def _muri(path: Path, opts: Mapping[str, Any]) -> Any:
    from instances.packing import muri

    return muri.build(path, opts.get("seed", 0), max_jobs=opts.get("max_jobs"), **_types(opts))


KIT = FamilyKit(
    family=FAMILY,
    methods=METHODS,
    generators=(
        Generator(
            "packing",
            "jobs with Table 8 models, Helios arrivals and eq. 15 deadlines (CUCKOO section 4.1)",
            "packing",
            _generate,
            (Option("jobs", int, "Number of jobs.", minimum=1, maximum=MAX_SIZE), SEED, GPU_TYPES),
            required=("jobs",),
            size_option="jobs",
        ),
    ),
    trace_builders=(
        TraceBuilder(
            "muri",
            "Muri trace CSV -> packing instance (instances/packing/muri.py)",
            "packing",
            _muri,
            (SEED, Option("max_jobs", int, "Keep only the first N jobs.", minimum=1), GPU_TYPES),
        ),
    ),
    views=(View("groups", "packing: every feasible group's timeline.", ("packing",), packing_groups),),
    simulation=SIMULATION,
)
