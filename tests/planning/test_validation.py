"""The planning validator names every broken rule; bad files report every field path."""

from __future__ import annotations

import json

import pytest

from packgap import jsonio
from packgap.analysis.registry import load_instance
from packgap.errors import InstanceError, ValidationError
from packgap.planning import FAMILY, GpuSequence, PlanningSolution


def test_validator_lists_every_violation(table5):
    bad = PlanningSolution(
        (
            GpuSequence("A", 0, ("1", "1")),
            GpuSequence("A", 3, ()),
            GpuSequence("C", 0, ("x",)),
        )
    )
    with pytest.raises(ValidationError) as info:
        FAMILY.validate(table5, bad)
    text = "\n".join(info.value.violations)
    assert "GPU 3 out of range for 'A'" in text
    assert "unknown GPU type 'C'" in text
    assert "unknown group 'x'" in text
    assert "group '1' planned 2 times" in text
    assert "1 group(s) not planned: 2" in text


def test_valid_plan_passes_and_scores(table5):
    plan = PlanningSolution((GpuSequence("A", 0, ("1", "2")),))
    FAMILY.validate(table5, plan)
    result = FAMILY.evaluate(table5, plan)
    # group 1 ends at 2, group 2 at 5 (deadline 5: not late)
    assert result.objective == pytest.approx(7.0)
    assert result.metrics["late_groups"] == 0


def test_bad_instance_reports_all_paths(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "schema": "packgap.planning",
                "version": 1,
                "name": "bad",
                "gpu_types": [{"name": "A", "count": 0}, {"name": "A", "count": 1}],
                "groups": [{"id": "g", "times": {"A": -1}, "deadline": "soon", "colour": 1}],
            }
        )
    )
    with pytest.raises(InstanceError) as info:
        load_instance(path)
    paths = {p.path for p in info.value.problems}
    assert {"gpu_types[0].count", "gpu_types[1].name", "groups[0].times.A", "groups[0].deadline"} <= paths
    assert "groups[0].colour" in paths
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"schema": "packgap.nothing", "version": 1}', "unknown schema"),
        ('{"schema": "packgap.planning", "version": 9}', "supports version 1"),
    ],
)
def test_unreadable_files(tmp_path, text, fragment):
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(InstanceError, match=fragment):
        load_instance(path)


def test_round_trip(table5, tmp_path):
    path = tmp_path / "t.json"
    jsonio.write(FAMILY.instance_to_dict(table5), path)
    assert load_instance(path)[1] == table5
