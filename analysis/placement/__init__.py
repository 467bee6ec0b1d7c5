"""Kit of the ``placement`` family: PAL's variability- and locality-aware placement per round,
and whole cluster traces simulated round by round."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from packgap.analysis.kit import (
    MAX_SIZE,
    SEED,
    Demo,
    DocumentKind,
    FamilyKit,
    Generator,
    GeneratorNote,
    Option,
    Simulation,
    TraceBuilder,
    View,
)
from packgap.analysis.method import Deferred
from packgap.analysis.packing import DROP_WIDE, MAX_JOBS, TRACE_SOURCES
from packgap.analysis.placement.methods import METHODS, POLICY_METHODS
from packgap.analysis.placement.views import placement_bins
from packgap.errors import PackgapError

JOBS = Option("jobs", int, "Number of jobs.", minimum=1, maximum=MAX_SIZE)


def _round(opts: Mapping[str, Any]) -> Any:
    """A generated round; when its jobs do not all fit, the file keeps those that do (the
    instances of the README and of issue 11 were made that way) and the user is told."""
    from packgap.instances.placement.rounds import generate_round

    seed = opts.get("seed", 0)
    try:
        return generate_round(opts["gpus"], opts["jobs"], seed, strict=True)
    except PackgapError as exc:
        warnings.warn(f"{exc}; the file keeps them and the next job cut to the GPUs left", GeneratorNote, stacklevel=1)
        return generate_round(opts["gpus"], opts["jobs"], seed)


def _synergy(opts: Mapping[str, Any]) -> Any:
    from packgap.instances.placement.synergy import synergy_cluster_trace

    return synergy_cluster_trace(opts["jobs"], opts.get("rate", 10.0), opts.get("seed", 0), gpus=opts.get("gpus", 256))


def _pal_sia(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.placement.sia import build_trace

    return build_trace(
        path,
        gpu_factors=opts.get("gpu_factors"),
        replay=opts.get("replay", "paper"),
        seed=opts.get("seed", 0),
        traces=opts.get("traces"),
    )


#: Default cluster size per trace source: Pollux's and Sia's workloads were made for 16 nodes x 4
#: GPUs; the others get PAL's Synergy cluster (64 x 4).
CLUSTER_GPUS = {"pollux": 64, "sia": 64}
CLUSTER_OPTIONS = (
    Option("gpus", int, "GPUs in the cluster (default 256; 64 for pollux and sia).", minimum=1, maximum=MAX_SIZE),
    Option("gpus_per_node", int, "GPUs per node (default 4).", minimum=1, maximum=MAX_SIZE),
    Option("factors", str, "Per-GPU PM-scores (default profiles, PAL IV-C).", choices=("profiles", "synthetic")),
)


def _cluster_trace(source: str) -> Callable[[Path, Mapping[str, Any]], Any]:
    def build(path: Path, opts: Mapping[str, Any]) -> Any:
        from packgap.instances.packing import trace_sources
        from packgap.instances.placement import from_trace

        return from_trace.build(
            trace_sources.read(source, path, opts),
            f"cluster-{source}",
            opts.get("seed", 0),
            gpus=opts.get("gpus", CLUSTER_GPUS.get(source, 256)),
            gpus_per_node=opts.get("gpus_per_node", 4),
            factors=opts.get("factors", "profiles"),
            traces=opts.get("traces"),
            max_jobs=opts.get("max_jobs"),
            drop_wide=opts.get("drop_wide", False),
        )

    return build


def _csv(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.placement import from_csv

    keys = ("seed", "gpus", "gpus_per_node", "factors", "traces")
    return from_csv.build(path, **{k: opts[k] for k in keys if k in opts})


SIMULATE = "packgap.analysis.placement.simulate"
#: The simulator's job schedulers, :data:`packgap.heuristics.placement.schedulers.SCHEDULERS` (written
#: out: that package loads NumPy; ``tests/analysis/test_declared_as_data.py`` checks the two agree).
SCHEDULERS = ("fifo", "las", "srtf")
#: The simulator's own placement policies (plug-ins add theirs: :mod:`packgap.analysis.plugins`).
PLACEMENT_POLICIES = (*(name for name, _, _ in POLICY_METHODS), "exact")
SIMULATION = Simulation(
    kinds=("cluster-trace",),
    options=(
        Option("scheduler", str, "cluster trace: fifo, las or srtf.", choices=SCHEDULERS),
        Option(
            "placement",
            str,
            f"cluster trace: a placement policy ({', '.join(PLACEMENT_POLICIES)} or a plug-in's).",
        ),
        Option("round_gaps", int, "cluster trace: solve every N-th round exactly, report gaps.", minimum=1),
    ),
    run=Deferred(f"{SIMULATE}:run_trace"),
    table=Deferred(f"{SIMULATE}:table"),
    plot=Deferred("packgap.analysis.placement.plots:plot_trace_run"),
    takes_solver=True,
    policies=PLACEMENT_POLICIES,
)

KIT = FamilyKit(
    name="placement",
    hub="packgap.placement",
    objective_unit="summed slowdown",
    methods=METHODS,
    generators=(
        Generator(
            "placement",
            "one PAL scheduling round: synthetic PM-scores, Table II job mix",
            "placement",
            _round,
            (Option("gpus", int, "GPUs in the cluster.", minimum=1, maximum=MAX_SIZE), JOBS, SEED),
            required=("gpus", "jobs"),
            size_option="jobs",
            example={"gpus": 16, "jobs": 5, "seed": 1},
        ),
        Generator(
            "synergy",
            "Synergy-like cluster trace (Poisson arrivals, >80% single-GPU) for simulate",
            "cluster-trace",
            _synergy,
            (
                JOBS,
                SEED,
                Option("rate", float, "Poisson arrivals per hour (default 10).", minimum=0),
                Option("gpus", int, "GPUs in the cluster (default 256).", minimum=1, maximum=MAX_SIZE),
            ),
            required=("jobs",),
            example={"jobs": 5, "gpus": 32},
        ),
    ),
    trace_builders=(
        TraceBuilder(
            "pal-sia",
            "PAL Sia-Philly workload CSV -> cluster trace for `simulate` (instances/placement/sia.py)",
            "cluster-trace",
            _pal_sia,
            (
                SEED,
                Option("gpu_factors", Path, "blox per-GPU factor table (else sampled)."),
                Option("replay", str, "paper (default) or blox.", choices=("paper", "blox")),
            ),
        ),
        *(
            TraceBuilder(
                f"cluster-{source}",
                f"{what} -> cluster trace for `simulate`, PAL models (instances/placement/from_trace.py)",
                "cluster-trace",
                _cluster_trace(source),
                (SEED, MAX_JOBS, *CLUSTER_OPTIONS, DROP_WIDE, *extra),
            )
            for source, what, extra in TRACE_SOURCES
        ),
    ),
    documents=(DocumentKind("cluster-trace", "packgap.placement.trace"),),
    views=(
        View("bins", "placement: PAL's PM-score bins and chosen K.", ("placement", "cluster-trace"), placement_bins),
    ),
    simulation=SIMULATION,
    csv_builder=TraceBuilder(
        "placement",
        "own job list CSV -> cluster trace for `simulate`, own PAL models (instances/placement/from_csv.py)",
        "cluster-trace",
        _csv,
        (SEED, *CLUSTER_OPTIONS),
    ),
    demo=Demo(
        "PAL placement: one scheduling round, 6 jobs on 64 GPUs of varying speed",
        "placement",
        {"gpus": 64, "jobs": 6, "seed": 1},
        ("pm-first", "pal", "packed-sticky", "packed-non-sticky", "random-non-sticky", "pal+blocks", "exact-blocks"),
    ),
)
