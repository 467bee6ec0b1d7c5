"""Kit of the ``calibration`` family: GIMBAL's worker coordination inside a packed job set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from analysis.calibration.methods import METHODS
from analysis.kit import SEED, FamilyKit, Generator, Option
from packgap.calibration import FAMILY
from packgap.calibration.instance import OBJECTIVES

OBJECTIVE = Option("objective", str, "Local objective of section 5.2 (default jct).", choices=OBJECTIVES)
GRANULARITY = Option("granularity", float, "LGRR step in % (default 10).", minimum=0.1)
ALPHA = Option("alpha", float, "Concavity exponent of the share curve (default 0.5).", minimum=0.01)
JOB_SETS = tuple(f"JC{i}" for i in range(1, 9))


def _model_options(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {k: opts[k] for k in ("objective", "granularity", "alpha") if k in opts}


def _generate(opts: Mapping[str, Any]) -> Any:
    from instances.calibration.jobsets import generate

    extra = {"gpus_per_node": opts["gpus_per_node"]} if "gpus_per_node" in opts else {}
    return generate(opts["jobs"], opts.get("seed", 0), **_model_options(opts), **extra)


def _table3(opts: Mapping[str, Any]) -> Any:
    from instances.calibration.jobsets import table3

    return table3(opts["job_set"], **_model_options(opts))


KIT = FamilyKit(
    family=FAMILY,
    methods=METHODS,
    generators=(
        Generator(
            "calibration",
            "a packed job set (J_max + smaller jobs on its GPUs, section 5.1) of Table 1 models",
            "calibration",
            _generate,
            (
                Option("jobs", int, "Jobs in the set.", minimum=1),
                SEED,
                OBJECTIVE,
                GRANULARITY,
                ALPHA,
                Option("gpus_per_node", int, "GPUs per node, a power of two (default 2).", minimum=1),
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
    ),
)
