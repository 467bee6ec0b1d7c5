"""A tiny hand-made job set whose objective is checked by hand, and a document builder."""

from __future__ import annotations

from typing import Any

import pytest

from packgap.calibration import instance as instance_module


def tiny_document(**changes: Any) -> dict[str, Any]:
    """J_max ``big`` (2 GPUs, model A) with ``small`` (1 GPU, model B) on GPU 0; 2 GPUs per node."""
    doc: dict[str, Any] = {
        "schema": "packgap.calibration",
        "version": 1,
        "name": "tiny",
        "objective": "jct",
        "granularity": 10,
        "cluster": {"nodes": 1, "gpus_per_node": 2},
        "throughput": {
            "alpha": 0.5,
            "source": "test",
            "models": [
                {"name": "A", "speed": 100.0, "fixed_cost": 0.1, "utilization": 100.0, "source": "test"},
                {"name": "B", "speed": 50.0, "fixed_cost": 0.0, "utilization": 50.0, "source": "test"},
            ],
            "pairs": [
                {"model": "A", "partner": "B", "speed": 0.5, "source": "test"},
                {"model": "B", "partner": "A", "speed": 0.8, "source": "test"},
            ],
        },
        "jobs": [
            {"id": "big", "model": "A", "batch": 100, "remaining_steps": 10, "deadline": 50, "gpus": [0, 1]},
            {"id": "small", "model": "B", "batch": 25, "remaining_steps": 4, "deadline": 1, "gpus": [0]},
        ],
    }
    doc.update(changes)
    return doc


@pytest.fixture
def tiny():
    return instance_module.from_dict(tiny_document())
