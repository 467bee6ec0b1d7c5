"""Bad input through the CLI: exit 2 and the field path, never a traceback."""

from __future__ import annotations

import json

import pytest

from tests.calibration.conftest import tiny_document
from tests.clirun import packgap


def _broken(kind):
    doc = tiny_document()
    if kind == "topology":
        doc["jobs"].append({"id": "x", "model": "B", "batch": 4, "remaining_steps": 1, "deadline": 1, "gpus": [0]})
        return doc, "jobs[2].gpus[0]"
    if kind == "gpu":
        doc["jobs"][1]["gpus"] = [5]
        return doc, "jobs[1].gpus[0]: GPU 5 does not exist"
    doc["jobs"][1]["model"] = "Nope"
    return doc, "jobs[1].model: no speed data for model 'Nope'"


@pytest.mark.parametrize("kind", ["topology", "gpu", "model"])
def test_bad_instance_exits_2_with_path(tmp_path, kind):
    doc, expected = _broken(kind)
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    done = packgap("instances", "show", "bad.json", cwd=tmp_path)
    assert done.returncode == 2
    assert expected in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_generate_and_compare(tmp_path):
    assert (
        packgap(
            "instances", "generate", "calibration-table3", "--job-set", "JC2", "-o", "jc2.json", cwd=tmp_path
        ).returncode
        == 0
    )
    done = packgap("compare", "jc2.json", "--methods", "gimbal,exact-frontier", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "exact-frontier" in done.stdout
