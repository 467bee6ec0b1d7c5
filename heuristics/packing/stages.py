"""The one table of packers and planners of the packing pipelines (names, descriptions, knobs)
and :class:`PipelineOptions`, apart from the pipelines themselves so that the CLI declares the
``packer+planner`` methods without importing the heuristics (issue 20.5)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from packgap.packing.instance import Interleaving

Packer = Literal["dab", "blossom", "muri", "none"]
Planner = Literal["mchp", "fifo", "edf"]


@dataclass(frozen=True)
class Stage:
    """A packer or planner: its description and the :class:`PipelineOptions` fields it reads."""

    description: str
    options: tuple[str, ...]


_MATCHING = ("anti_overpacking", "backend", "neighbours", "min_eff")
#: The one table of packers and planners (names, descriptions, knobs).
PACKER_STAGES: dict[Packer, Stage] = {
    "dab": Stage("CUCKOO DAB packing (total_value, w = 0.6, AM)", ("w", *_MATCHING)),
    "blossom": Stage("Muri Blossom packing as CUCKOO reads it (eff_value, Muri-P, pairs)", _MATCHING),
    "muri": Stage(
        "Muri packing as released (used ratio, multi_resource = 4, up to 4 jobs)",
        ("multi_resource", "packing_num", "weight_lbd", "autopack", "backend"),
    ),
    "none": Stage("no packing", ()),
}
PLANNER_STAGES: dict[Planner, Stage] = {
    "mchp": Stage("MCHP min-cost (GPU type, order) matching", ("deadline_weight", "gpu_order")),
    "fifo": Stage("FIFO planning", ("gpu_choice",)),
    "edf": Stage("EDF planning", ("gpu_choice",)),
}
#: Options every pipeline reads, whatever its stages.
COMMON_OPTIONS = ("estimator", "window_s", "homogeneous_as")
PACKERS: tuple[Packer, ...] = tuple(PACKER_STAGES)
#: The packers whose groups are pairs at most, the exact models' class of solutions: their
#: answers warm-start the exact models, and ``packer+exact-plan`` exists for them only.
PAIR_PACKERS: tuple[Packer, ...] = tuple(p for p in PACKERS if p != "muri")
PLANNERS: tuple[Planner, ...] = tuple(PLANNER_STAGES)


@dataclass(frozen=True)
class PipelineOptions:
    """Every knob of a pipeline; ``estimator=None`` picks the packer's own model."""

    #: CUCKOO's w of eq. 12, :data:`packgap.packing.values.DEFAULT_W` (not imported: the
    #: hub package loads NumPy; ``tests/analysis/test_declared_as_data.py`` checks the two agree).
    w: float = 0.6
    estimator: Interleaving | None = None
    anti_overpacking: bool = True
    deadline_weight: float = 1.0
    gpu_order: Literal["slots", "shortest-first"] = "slots"
    gpu_choice: Literal["earliest-finish", "earliest-start"] = "earliest-finish"
    backend: Literal["rustworkx", "networkx"] = "rustworkx"
    window_s: float = 1000.0
    neighbours: int = 0
    min_eff: float = 0.0
    homogeneous_as: str = ""
    #: Muri's flags (``run_sim.py``) for the ``muri`` packer, with its shipped defaults.
    multi_resource: int = 4
    packing_num: int = 4
    weight_lbd: float = 0.0
    autopack: bool = True


def pipeline_defaults(packer: Packer, planner: Planner | None) -> dict[str, Any]:
    """The parameters of ``packer+planner`` with :class:`PipelineOptions`' defaults
    (``estimator`` "auto": the packer's own model); ``planner`` None: packing only."""
    names = [*COMMON_OPTIONS, *PACKER_STAGES[packer].options]
    if planner is not None:
        names += PLANNER_STAGES[planner].options
    defaults = {f.name: f.default for f in fields(PipelineOptions)}
    return {name: "auto" if name == "estimator" else defaults[name] for name in names}
