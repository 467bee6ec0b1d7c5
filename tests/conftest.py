"""Shared fixtures: the paper's Table 5 instance and a small generated one."""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings

from packgap.analysis import plugins
from packgap.gpus import GpuType
from packgap.planning import Group, PlanningInstance

# Property tests draw the same examples on every run, so that CI on a clean clone is
# repeatable: a fresh random draw once failed CI on an instance no earlier run had met
# (exact-ti out of time, since fixed). ``PACKGAP_HYPOTHESIS=explore`` draws new examples.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("PACKGAP_HYPOTHESIS", "repeatable"))


@pytest.fixture
def table5() -> PlanningInstance:
    """CUCKOO Table 5: two groups, one GPU A and one GPU B, both deadlines 5."""
    return PlanningInstance(
        name="cuckoo-table5",
        gpu_types=(GpuType("A", 1), GpuType("B", 1)),
        groups=(Group("1", (2.0, 3.0), 5.0, ("1",)), Group("2", (3.0, 4.0), 5.0, ("2",))),
    )


@pytest.fixture
def plugin_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Plug-in registrations (:mod:`packgap.analysis.plugins`) and plug-in files loaded by the test
    are forgotten after it (the installed entry points, loaded once per process, stay)."""
    monkeypatch.delenv(plugins.ENV, raising=False)
    plugins.ensure_loaded()
    saved = plugins._REGISTERED
    fresh = dataclasses.replace(
        saved,
        methods={k: dict(v) for k, v in saved.methods.items()},
        policies={k: dict(v) for k, v in saved.policies.items()},
        origins=dict(saved.origins),
        specs=list(saved.specs),
        files=dict(saved.files),
    )
    monkeypatch.setattr(plugins, "_REGISTERED", fresh)
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("packgap_plugin_"):
            del sys.modules[name]
