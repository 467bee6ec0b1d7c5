"""Kit of the ``packing`` family: CUCKOO's deadline-aware packing and planning (Muri as baseline)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from packgap.analysis.kit import MAX_SIZE, SEED, Demo, FamilyKit, Generator, Option, TraceBuilder, View
from packgap.analysis.packing.methods import METHODS
from packgap.analysis.packing.simulate import SIMULATION
from packgap.analysis.packing.views import packing_groups
from packgap.analysis.planning import GPU_TYPES
from packgap.gpus import parse_gpu_types


def _types(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {"gpu_types": parse_gpu_types(opts["gpu_types"])} if "gpu_types" in opts else {}


def _generate(opts: Mapping[str, Any]) -> Any:
    from packgap.instances.packing.generator import generate

    return generate(opts["jobs"], opts.get("seed", 0), **_types(opts))


def _muri(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.packing import muri

    interleaving = {"interleaving": opts["interleaving"]} if "interleaving" in opts else {}
    return muri.build(path, opts.get("seed", 0), max_jobs=opts.get("max_jobs"), **_types(opts), **interleaving)


#: ``from-trace muri``'s GPU mix: Muri's own cluster, not CUCKOO's Table 7.
MURI_GPU_TYPES = Option("gpu_types", str, "NAME:COUNT,... GPU mix (default: V100:64, Muri's 8 x 8 testbed).")
MURI_INTERLEAVING = Option(
    "interleaving",
    str,
    "Ground-truth interleaving model (default: am; muri: Muri's released simulator).",
    choices=("am", "muri-p", "muri"),
)


MAX_JOBS = Option("max_jobs", int, "Keep only the first N jobs (submit order).", minimum=1, maximum=MAX_SIZE)
DROP_WIDE = Option("drop_wide", bool, "Leave out jobs wider than the cluster (else they are an error).")
#: Trace folders with jobs: (source, what its builders read, the source's own options).
TRACE_SOURCES: tuple[tuple[str, str, tuple[Option, ...]], ...] = (
    ("philly", "Philly job summary philly/philly.csv", (Option("vc", str, "Keep one virtual cluster (hash)."),)),
    (
        "gavel",
        "Gavel per-VC .trace (or philly_job_distribution.csv)",
        (
            Option("throughputs", Path, "Gavel per-type throughput JSON (default: the trace folder's oracle file)."),
            Option(
                "jobs_per_hour", float, "Poisson arrivals per hour for philly_job_distribution.csv (> 0).", minimum=0
            ),
        ),
    ),
    ("openb", "Alibaba openb pod list (pods with GPUs, creation/deletion times)", ()),
    ("pollux", "Pollux workload CSV", (Option("profiles", Path, "throughput_profiles folder (default: Pollux's)."),)),
    ("sia", "Sia workload CSV", (Option("profiles", Path, "throughput_profiles folder (default: Sia's)."),)),
    ("synergy", "Synergy replay trace (no header)", ()),
)


def _csv(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.packing import from_csv

    return from_csv.build(path, opts.get("seed", 0), **_types(opts))


def _packing_trace(source: str) -> Callable[[Path, Mapping[str, Any]], Any]:
    def build(path: Path, opts: Mapping[str, Any]) -> Any:
        from packgap.instances.packing import from_trace, trace_sources

        trace = trace_sources.read(source, path, opts)
        return from_trace.build(
            trace,
            f"packing-{source}",
            opts.get("seed", 0),
            max_jobs=opts.get("max_jobs"),
            drop_wide=opts.get("drop_wide", False),
            **_types(opts),
        )

    return build


KIT = FamilyKit(
    name="packing",
    hub="packgap.packing",
    objective_unit="h + late share",
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
            (
                SEED,
                Option("max_jobs", int, "Keep only the first N jobs.", minimum=1),
                MURI_GPU_TYPES,
                MURI_INTERLEAVING,
            ),
        ),
        *(
            TraceBuilder(
                f"packing-{source}",
                f"{what} -> packing instance, Table 8 models, eq. 15 deadlines (instances/packing/from_trace.py)",
                "packing",
                _packing_trace(source),
                (SEED, MAX_JOBS, GPU_TYPES, DROP_WIDE, *extra),
            )
            for source, what, extra in TRACE_SOURCES
        ),
    ),
    views=(View("groups", "packing: every feasible group's timeline.", ("packing",), packing_groups),),
    simulation=SIMULATION,
    csv_builder=TraceBuilder(
        "packing",
        "own job list CSV -> packing instance, own Table 8 models (instances/packing/from_csv.py)",
        "packing",
        _csv,
        (SEED, GPU_TYPES),
    ),
    demo=Demo(
        "CUCKOO packing (DAB + MCHP) vs Muri's Blossom and no packing: 8 jobs, pairing and planning",
        "packing",
        {"jobs": 8, "seed": 3},
        ("dab+mchp", "dab+edf", "blossom+mchp", "blossom+edf", "none+mchp", "none+edf", "exact-ti"),
    ),
)
