"""Kit of the ``sharing`` family: SJF-BSBF's online GPU sharing with gradient accumulation."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packgap.analysis.kit import MAX_SIZE, SEED, Demo, FamilyKit, Generator, Option, TraceBuilder
from packgap.analysis.sharing.commands import commands
from packgap.analysis.sharing.methods import METHODS
from packgap.analysis.sharing.simulate import SIMULATION

XI_SOURCE = Option("xi_source", str, "Co-location data for xi (default gavel).", choices=("gavel", "lucid", "global"))
XI = Option("xi", float, "Global interference ratio (with --xi-source global; default 1.5).", minimum=1.0)


def _generate(opts: Mapping[str, Any]) -> Any:
    from packgap.instances.sharing.generator import generate

    keys = ("nodes", "gpus_per_node", "hours", "duration_median_s", "xi", "preemption_overhead_s", "workload")
    return generate(opts["jobs"], opts.get("seed", 0), **{k: opts[k] for k in keys if k in opts})


def _pollux(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.sharing.traces import from_pollux

    return from_pollux(path, **{k: opts[k] for k in ("profiles", "xi_source", "xi", "traces") if k in opts})


def _philly(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.sharing.traces import from_philly

    keys = ("jobs", "seed", "hours", "start", "xi_source", "xi", "traces", "nodes", "gpus_per_node")
    return from_philly(path, **{k: opts[k] for k in keys if k in opts})


def _csv(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.sharing import from_csv

    keys = ("seed", "nodes", "gpus_per_node", "xi_source", "xi", "traces")
    return from_csv.build(path, **{k: opts[k] for k in keys if k in opts})


#: The cluster of every sharing builder that reads a file (default: the paper's 16 x 4 GPUs).
CLUSTER = (
    Option("nodes", int, "Nodes (default 16).", minimum=1, maximum=MAX_SIZE),
    Option("gpus_per_node", int, "GPUs per node (default 4).", minimum=1, maximum=64),
)


KIT = FamilyKit(
    name="sharing",
    hub="packgap.sharing",
    objective_unit="s",
    methods=METHODS,
    generators=(
        Generator(
            "sharing",
            "SJF-BSBF workload: Philly GPU mix, Pollux tasks, calibrated to Table III (section VI-A)",
            "sharing",
            _generate,
            (
                Option("jobs", int, "Number of jobs.", minimum=1, maximum=MAX_SIZE),
                SEED,
                Option("nodes", int, "Nodes (default 16).", minimum=1, maximum=MAX_SIZE),
                Option("gpus_per_node", int, "GPUs per node (default 4).", minimum=1, maximum=64),
                Option("hours", float, "Arrival window in hours (default: table3 4, v1 8).", minimum=0),
                Option("duration_median_s", float, "Median solo run time, v1 only (default 1800 s).", minimum=1),
                Option("xi", float, "One global xi (Fig. 6b); 0 or absent: per task pair.", minimum=0),
                Option("preemption_overhead_s", float, "Resume cost of preemptive policies (s).", minimum=0),
                Option(
                    "workload",
                    str,
                    "table3 (VI-A calibrated to Table III, default), v1 (VI-A before issue 30) or physical (VI-B).",
                    choices=("table3", "v1", "physical"),
                ),
            ),
            required=("jobs",),
            size_option="jobs",
            example={"jobs": 6, "seed": 1, "nodes": 1, "workload": "v1"},
        ),
    ),
    trace_builders=(
        TraceBuilder(
            "sharing-pollux",
            "Pollux workload CSV -> sharing instance (profiles fitted to Pollux's step times)",
            "sharing",
            _pollux,
            (
                Option("profiles", Path, "Pollux throughput_profiles folder (default: the trace folder's)."),
                XI_SOURCE,
                XI,
                *CLUSTER,
            ),
        ),
        TraceBuilder(
            "sharing-philly",
            "Philly job summary philly.csv -> sharing instance (busiest 8-hour window, sampled)",
            "sharing",
            _philly,
            (
                Option(
                    "jobs",
                    int,
                    "Jobs to sample (default 240, or all of the window's if fewer).",
                    minimum=1,
                    maximum=MAX_SIZE,
                ),
                SEED,
                Option("hours", float, "Window length in hours (default 8).", minimum=0.01),
                Option("start", str, "Window start, ISO time (default: the busiest window)."),
                XI_SOURCE,
                XI,
                *CLUSTER,
            ),
        ),
    ),
    simulation=SIMULATION,
    commands=commands,
    csv_builder=TraceBuilder(
        "sharing",
        "own job list CSV -> sharing instance, Pollux tasks (instances/sharing/from_csv.py)",
        "sharing",
        _csv,
        (SEED, *CLUSTER, XI_SOURCE, XI),
    ),
    demo=Demo(
        "SJF-BSBF GPU sharing: 6 jobs of the testbed workload on 16 GPUs",
        "sharing",
        {"jobs": 6, "seed": 1, "nodes": 4, "hours": 0.5, "workload": "physical"},
        ("fifo", "sjf", "tiresias", "sjf-ffs", "sjf-bsbf", "exact-bb"),
        note=(
            "Which bound is which: certified gap, for FIFO, SJF, SJF-FFS and SJF-BSBF (non-preemptive): their\n"
            "class gap, against the best bound over non-preemptive schedules (exact-bb's proven optimum here;\n"
            "class-bound's run LP where no optimum is proven); for Tiresias (preemptive): against the best bound\n"
            "for every schedule. Certified gap, all classes: every policy against the best bound that holds with\n"
            "preemption too (exact-bb's own bound, the rate LP)."
        ),
    ),
)
