"""Shared fixtures: the paper's Table 5 instance and a small generated one."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

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
