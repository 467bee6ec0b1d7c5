"""A repeated id is reported even when the first entry has another bad field."""

from __future__ import annotations

import pytest

from packgap.errors import InstanceError
from packgap.instances.packing.generator import generate
from packgap.packing import FAMILY


def test_duplicate_job_and_type_next_to_a_bad_field():
    doc = FAMILY.instance_to_dict(generate(3, seed=1))
    doc["jobs"][1]["id"] = doc["jobs"][0]["id"]
    doc["jobs"][0]["gpus"] = -1
    doc["gpu_types"].append({"name": doc["gpu_types"][0]["name"], "count": 0})
    with pytest.raises(InstanceError) as info:
        FAMILY.instance_from_dict(doc)
    paths = {p.path for p in info.value.problems}
    assert {"jobs[0].gpus", "jobs[1].id", f"gpu_types[{len(doc['gpu_types']) - 1}].name"} <= paths
