"""Methods are declared as data (issue 20.5: the CLI starts without importing them): each
declared run resolves, and the declared parameters are what the implementation takes."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import pytest

from packgap.analysis.method import Deferred
from packgap.analysis.packing.ti.settings import TiSettings
from packgap.analysis.registry import kits, method
from packgap.errors import PackgapError
from packgap.heuristics.packing.stages import PACKERS, PLANNERS, pipeline_defaults
from packgap.heuristics.placement import POLICIES
from packgap.heuristics.planning import edf, fifo, mchp
from packgap.heuristics.sharing.exclusive import fifo as sharing_fifo
from packgap.heuristics.sharing.exclusive import sjf
from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.heuristics.sharing.sjf_ffs import sjf_ffs

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
    with pytest.raises(PackgapError, match="packgap.analysis.planning.runs:nothing"):
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
    for packer in PACKERS:
        expected["packing", f"{packer}+exact-plan"] = pipeline_defaults(packer, None)
        for planner in PLANNERS:
            expected["packing", f"{packer}+{planner}"] = pipeline_defaults(packer, planner)
    for (family, name), defaults in expected.items():
        assert dict(method(family, name).defaults) == defaults, f"{family} {name}"


def test_placement_methods_are_the_policies() -> None:
    for spec in POLICIES.values():
        declared = method("placement", spec.name)
        assert (declared.description, dict(declared.defaults)) == (spec.description, spec.defaults)
