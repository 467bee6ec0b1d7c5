"""Shared fixtures: the paper's Table 5 instance and a small generated one."""

from __future__ import annotations

import pytest

from packgap.gpus import GpuType
from packgap.planning import Group, PlanningInstance


@pytest.fixture
def table5() -> PlanningInstance:
    """CUCKOO Table 5: two groups, one GPU A and one GPU B, both deadlines 5."""
    return PlanningInstance(
        name="cuckoo-table5",
        gpu_types=(GpuType("A", 1), GpuType("B", 1)),
        groups=(Group("1", (2.0, 3.0), 5.0, ("1",)), Group("2", (3.0, 4.0), 5.0, ("2",))),
    )
