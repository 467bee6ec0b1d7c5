"""What the kits declare as data so that the CLI starts without importing the families'
implementations (issue 20.5) agrees with those implementations: every deferred run resolves,
the declared parameters are what the functions take, the CLI's choices are the real names,
and each kit's hub package holds the family of its name."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import pytest

from packgap.analysis.method import Deferred
from packgap.analysis.packing.ti.settings import TiSettings
from packgap.analysis.registry import kit, kits, method
from packgap.calibration.instance import OBJECTIVES
from packgap.errors import PackgapError
from packgap.heuristics.packing.muri import muri_groups
from packgap.heuristics.packing.stages import PACKERS, PAIR_PACKERS, PLANNERS, PipelineOptions, pipeline_defaults
from packgap.heuristics.placement import POLICIES
from packgap.heuristics.placement.schedulers import SCHEDULERS
from packgap.heuristics.planning import edf, fifo, mchp
from packgap.heuristics.sharing.exclusive import fifo as sharing_fifo
from packgap.heuristics.sharing.exclusive import sjf
from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
from packgap.packing.values import DEFAULT_W

ALL = [(k.name, m) for k in kits().values() for m in k.methods]


def _keyword_defaults(heuristic: Callable[..., Any]) -> dict[str, Any]:
    """The parameters after the instance, with their defaults (scikit-learn's get_params)."""
    params = list(inspect.signature(heuristic).parameters.values())[1:]
    return {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}


@pytest.mark.parametrize(("family", "declared"), ALL, ids=[f"{f}:{m.name}" for f, m in ALL])
def test_every_declared_run_resolves(family: str, declared: Any) -> None:
    assert isinstance(declared.run, Deferred), f"{family} {declared.name} imports its run at declaration"
    assert callable(declared.run.function())


def test_an_unknown_run_fails_with_its_name() -> None:
    with pytest.raises(PackgapError, match=r"packgap\.analysis\.planning\.runs:nothing"):
        Deferred("packgap.analysis.planning.runs:nothing").function()


def test_heuristic_defaults_are_their_signatures() -> None:
    expected = {
        ("planning", "mchp"): _keyword_defaults(mchp),
        ("planning", "fifo"): _keyword_defaults(fifo),
        ("planning", "edf"): _keyword_defaults(edf),
        ("sharing", "fifo"): _keyword_defaults(sharing_fifo),
        ("sharing", "sjf"): _keyword_defaults(sjf),
        ("sharing", "sjf-ffs"): _keyword_defaults(sjf_ffs),
        ("sharing", "sjf-bsbf"): _keyword_defaults(sjf_bsbf),
        ("packing", "exact-ti"): asdict(TiSettings()),
        ("placement", "pal+blocks"): POLICIES["pal"].defaults,
    }
    for packer in PAIR_PACKERS:
        expected["packing", f"{packer}+exact-plan"] = pipeline_defaults(packer, None)
    for packer in PACKERS:
        for planner in PLANNERS:
            expected["packing", f"{packer}+{planner}"] = pipeline_defaults(packer, planner)
    for (family, name), defaults in expected.items():
        assert dict(method(family, name).defaults) == defaults, f"{family} {name}"
    assert PipelineOptions().w == DEFAULT_W
    muri = _keyword_defaults(muri_groups)
    del muri["cluster_gpu"]  # offline: the instance's GPUs
    flags = {**asdict(muri.pop("options")), **muri}
    assert {k: v for k, v in asdict(PipelineOptions()).items() if k in flags} == flags


def test_placement_methods_are_the_policies() -> None:
    for spec in POLICIES.values():
        declared = method("placement", spec.name)
        assert (declared.description, dict(declared.defaults)) == (spec.description, spec.defaults)


def _choices(family: str, option: str) -> tuple[str, ...]:
    found = kit(family)
    declared = [*found.simulation.options] if found.simulation else []
    declared += [o for g in found.generators for o in g.options]
    return next(o.choices for o in declared if o.name == option)


def test_cli_choices_are_the_implementations_names() -> None:
    assert _choices("calibration", "objective") == OBJECTIVES
    assert _choices("placement", "scheduler") == tuple(SCHEDULERS)
    # plug-in placement policies join at run time, so the option lists the simulator's own
    assert kit("placement").simulation.policies == (*POLICIES, "exact")


@pytest.mark.parametrize("family", list(kits()))
def test_each_hub_holds_its_family(family: str) -> None:
    assert kit(family).family.name == family
