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


def test_check_names_a_share_off_the_grid(tmp_path):
    (tmp_path / "tiny.json").write_text(json.dumps(tiny_document()))
    good = {
        "jobs": [
            {"id": "big", "shares": [100, 90], "samples": [50, 50]},
            {"id": "small", "shares": [40], "samples": [25]},
        ]
    }
    (tmp_path / "good.json").write_text(json.dumps(good))
    done = packgap("calibration", "check", "tiny.json", "good.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["objective"] > 0
    good["jobs"][1]["shares"] = [45]
    good["jobs"][0]["shares"] = [100, 101]
    (tmp_path / "bad.json").write_text(json.dumps(good))
    done = packgap("calibration", "check", "tiny.json", "bad.json", cwd=tmp_path)
    assert done.returncode == 2
    text = done.stdout + done.stderr
    assert "jobs[1].shares[0]: share 45 is off the 10 % grid" in text
    assert "jobs[0].shares[1]: share 101 outside [0, 100]" in text


def test_check_takes_the_solution_of_a_result_file(tmp_path):
    """What `solve -o` writes is accepted as is (22 "unknown field" problems before)."""
    (tmp_path / "tiny.json").write_text(json.dumps(tiny_document()))
    done = packgap("solve", "tiny.json", "-m", "gimbal", "--json", "-o", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    solved = json.loads(done.stdout)
    done = packgap("calibration", "check", "tiny.json", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["objective"] == solved["objective"]
    result = json.loads((tmp_path / "r.json").read_text())
    (tmp_path / "none.json").write_text(json.dumps({**result, "solution": None, "status": "timeout"}))
    done = packgap("calibration", "check", "tiny.json", "none.json", cwd=tmp_path)
    assert done.returncode == 2 and "a gimbal result without a solution (status timeout)" in done.stderr
