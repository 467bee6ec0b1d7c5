from __future__ import annotations

from typing import Any


def round_document(**overrides: Any) -> dict[str, Any]:
    """2 nodes x 4 GPUs, two classes, three jobs (6 of 8 GPUs)."""
    doc: dict[str, Any] = {
        "schema": "packgap.placement",
        "version": 1,
        "name": "tiny",
        "nodes": 2,
        "gpus_per_node": 4,
        "classes": ["A", "C"],
        "pm_scores": {
            "A": [0.9, 1.0, 1.1, 2.5, 0.95, 0.95, 1.2, 1.0],
            "C": [1.0, 1.0, 1.01, 0.99, 1.0, 1.0, 1.0, 1.02],
        },
        "locality_penalty": 1.5,
        "jobs": [
            {"id": "j0", "gpus": 1, "class": "C", "model": "PointNet", "work": 100.0},
            {"id": "j1", "gpus": 3, "class": "A", "model": "resnet50", "work": 50.0},
            {"id": "j2", "gpus": 2, "class": "A", "model": "vgg19", "work": 10.0},
        ],
    }
    doc.update(overrides)
    return doc
