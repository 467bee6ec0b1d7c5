"""Methods of the ``packing`` family: CUCKOO's and Muri's packing + planning pipelines.

Each method is ``packer+planner`` (``heuristics.packing.pipeline``): packer ``dab`` (CUCKOO,
eq. 12), ``blossom`` (Muri, efficiency only) or ``none``, then planner ``mchp`` (CUCKOO,
eq. 13-14), ``fifo`` or ``edf`` (section 4.5 baselines). ``estimator = "auto"`` lets the
packer pick its own interleaving model (AM for DAB and none, Muri-P for Blossom).
"""

from __future__ import annotations

from typing import Any

from analysis.methods.base import Method, MethodOutput, RunContext
from heuristics.packing.pipeline import PACKERS, PLANNERS, Packer, PipelineOptions, Planner, run_pipeline
from packgap.errors import UnknownNameError
from packgap.packing import PackingInstance
from packgap.packing.instance import INTERLEAVINGS
from packgap.packing.values import DEFAULT_W
from packgap.result import Status


def _defaults(packer: Packer, planner: Planner) -> dict[str, Any]:
    params: dict[str, Any] = {"estimator": "auto"}
    if packer != "none":
        params |= {"anti_overpacking": True, "backend": "rustworkx"}
    if packer == "dab":
        params["w"] = DEFAULT_W
    if planner == "mchp":
        params["deadline_weight"] = 1.0
    else:
        params["gpu_choice"] = "earliest-finish"
    return params


def _options(params: dict[str, Any]) -> PipelineOptions:
    estimator = params["estimator"]
    if estimator != "auto" and estimator not in INTERLEAVINGS:
        raise UnknownNameError("estimator", estimator, ["auto", *INTERLEAVINGS])
    given = {k: v for k, v in params.items() if k != "estimator"}
    return PipelineOptions(estimator=None if estimator == "auto" else estimator, **given)


def _runner(packer: Packer, planner: Planner) -> Any:
    def run(instance: PackingInstance, ctx: RunContext) -> MethodOutput:
        solution = run_pipeline(instance, packer, planner, _options(dict(ctx.params)))
        return MethodOutput(solution, Status.FEASIBLE)

    return run


_PACKER_TEXT = {
    "dab": "CUCKOO DAB packing (total_value, w = 0.6, AM)",
    "blossom": "Muri Blossom packing (eff_value, Muri-P)",
    "none": "no packing",
}
_PLANNER_TEXT = {
    "mchp": "MCHP min-cost (GPU type, order) matching",
    "fifo": "FIFO planning",
    "edf": "EDF planning",
}

METHODS: tuple[Method, ...] = tuple(
    Method(
        "packing",
        f"{packer}+{planner}",
        f"{_PACKER_TEXT[packer]}, then {_PLANNER_TEXT[planner]}",
        _runner(packer, planner),
        defaults=_defaults(packer, planner),
    )
    for packer in PACKERS
    for planner in PLANNERS
)
