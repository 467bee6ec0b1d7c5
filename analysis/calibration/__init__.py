"""Kit of the ``calibration`` family: GIMBAL's worker coordination inside a packed job set."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packgap.analysis.calibration.methods import METHODS
from packgap.analysis.calibration.simulate import SIMULATION
from packgap.analysis.kit import MAX_SIZE, SEED, Demo, DocumentKind, FamilyKit, Generator, Option, TraceBuilder

#: :data:`packgap.calibration.instance.OBJECTIVES`, written out: the hub package loads NumPy
#: (``tests/analysis/test_declared_as_data.py`` checks the two agree).
OBJECTIVES = ("jct", "makespan", "deadline")
OBJECTIVE = Option("objective", str, "Local objective of section 5.2 (default jct).", choices=OBJECTIVES)
GRANULARITY = Option("granularity", float, "LGRR step in % (default 10).", minimum=0.1)
ALPHA = Option("alpha", float, "Concavity exponent of the share curve (default 0.5).", minimum=0.01)
JOB_SETS = tuple(f"JC{i}" for i in range(1, 9))
JOBS = Option("jobs", int, "Number of jobs.", minimum=1, maximum=MAX_SIZE)
MAX_HOURS = Option("max_hours", float, "Cap on a job's solo duration in hours (default 2).", minimum=0.02)


def _model_options(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {k: opts[k] for k in ("objective", "granularity", "alpha") if k in opts}


def _generate(opts: Mapping[str, Any]) -> Any:
    from packgap.instances.calibration.jobsets import generate

    extra = {"gpus_per_node": opts["gpus_per_node"]} if "gpus_per_node" in opts else {}
    return generate(opts["jobs"], opts.get("seed", 0), **_model_options(opts), **extra)


def _table3(opts: Mapping[str, Any]) -> Any:
    from packgap.instances.calibration.jobsets import table3

    return table3(opts["job_set"], **_model_options(opts))


def _workload(opts: Mapping[str, Any]) -> Any:
    from packgap.instances.calibration.workload import generate

    extra = {k: opts[k] for k in ("rate", "max_hours") if k in opts}
    return generate(opts["jobs"], opts.get("seed", 0), **extra)


def _philly(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.calibration.workload import from_philly

    return from_philly(path, **{k: opts[k] for k in ("jobs", "start", "max_hours", "seed") if k in opts})


def _openb(path: Path, opts: Mapping[str, Any]) -> Any:
    from packgap.instances.calibration.workload import from_openb

    return from_openb(path, **{k: opts[k] for k in ("jobs", "start_s", "max_hours", "seed", "compress") if k in opts})


def _commands() -> Any:
    from packgap.analysis.calibration.commands import commands

    return commands()


KIT = FamilyKit(
    name="calibration",
    hub="packgap.calibration",
    objective_unit="s",
    methods=METHODS,
    generators=(
        Generator(
            "calibration",
            "a packed job set (J_max + smaller jobs on its GPUs, section 5.1) of Table 1 models",
            "calibration",
            _generate,
            (
                Option("jobs", int, "Jobs in the set.", minimum=1, maximum=MAX_SIZE),
                SEED,
                OBJECTIVE,
                GRANULARITY,
                ALPHA,
                Option("gpus_per_node", int, "GPUs per node, a power of two (default 2).", minimum=1, maximum=64),
            ),
            required=("jobs",),
            size_option="jobs",
            example={"jobs": 3, "seed": 1},
        ),
        Generator(
            "calibration-table3",
            "GIMBAL Table 3 job combination JC1..JC8 (section 7.4)",
            "calibration",
            _table3,
            (Option("job_set", str, "Which combination.", choices=JOB_SETS), OBJECTIVE, GRANULARITY, ALPHA),
            required=("job_set",),
        ),
        Generator(
            "calibration-workload",
            "a job stream for simulate: Poisson arrivals, Table 2 (a) model / GPU mix, section 7.1 deadlines",
            "calibration-workload",
            _workload,
            (JOBS, SEED, Option("rate", float, "Arrivals per hour (default 30).", minimum=0.01), MAX_HOURS),
            required=("jobs",),
        ),
    ),
    trace_builders=(
        TraceBuilder(
            "calibration-philly",
            "Philly philly.csv -> calibration workload (section 7.1: 150 jobs, Table 2 (a) mix, lambda deadlines)",
            "calibration-workload",
            _philly,
            (JOBS, SEED, Option("start", str, "First submit time (default 2017-10-02 09:00:00)."), MAX_HOURS),
        ),
        TraceBuilder(
            "calibration-openb",
            "Alibaba openb pod list -> calibration workload (300 GPU pods, Table 2 (b) mix)",
            "calibration-workload",
            _openb,
            (
                JOBS,
                SEED,
                Option("start_s", float, "First creation time in s (default 11.5 M).", minimum=0),
                MAX_HOURS,
                Option("compress", float, "Divide arrival gaps by this (default 1).", minimum=0.01),
            ),
        ),
    ),
    documents=(DocumentKind("calibration-workload", "packgap.calibration.workload"),),
    simulation=SIMULATION,
    commands=_commands,
    demo=Demo(
        "GIMBAL calibration: job set JC7 of Table 3 (10 % MPS grid)",
        "calibration-table3",
        {"job_set": "JC7"},
        ("gimbal", "free-competition", "liss-only", "exact-frontier", "continuous-bound"),
    ),
)
