from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from packgap import jsonio
from packgap.errors import InstanceError, ValidationError
from packgap.packing import FAMILY, PackingSolution, PlacedGroup, candidate_groups
from packgap.packing.instance import from_dict, to_dict
from tests.packing.strategies import instances, tiny_document


def _solution(*groups: tuple[tuple[str, ...], str, tuple[int, ...], float]) -> PackingSolution:
    return PackingSolution(tuple(PlacedGroup(*g) for g in groups))


GOOD = _solution((("r1", "b1"), "A800", (0,), 5.0), (("r2",), "A10", (0,), 10.0))


def test_round_trip_is_byte_identical() -> None:
    inst = from_dict(tiny_document())
    assert jsonio.dumps(to_dict(from_dict(to_dict(inst)))) == jsonio.dumps(to_dict(inst))
    assert inst.alpha == pytest.approx(1 / 3600) and inst.beta == 1.0
    assert inst.interleaving == "am" and inst.interference == 2.0


@settings(max_examples=40, deadline=None)
@given(instances())
def test_hypothesis_round_trip(inst) -> None:  # type: ignore[no-untyped-def]
    text = jsonio.dumps(to_dict(inst))
    assert jsonio.dumps(to_dict(from_dict(json.loads(text)))) == text


def test_bad_instance_lists_every_problem() -> None:
    doc = tiny_document(objective="fastest", interference=0.5)
    doc["jobs"][0]["sync"] = "never"
    doc["jobs"][1]["profiles"]["A10"]["F"] = -1
    doc["jobs"][2]["gpus"] = 9
    doc["jobs"][2]["deadline"] = 1.0
    del doc["jobs"][1]["profiles"]["A800"]
    with pytest.raises(InstanceError) as err:
        from_dict(doc)
    paths = {p.path for p in err.value.problems}
    assert {
        "objective",
        "interference",
        "jobs[0].sync",
        "jobs[1].profiles.A10.F",
        "jobs[1].profiles.A800",
        "jobs[2].deadline",
    } <= paths


def test_demand_beyond_every_type_is_reported() -> None:
    doc = tiny_document()
    doc["jobs"][2]["gpus"] = 9
    with pytest.raises(InstanceError, match=r"jobs\[2\].gpus: demand 9 exceeds"):
        from_dict(doc)


def test_solution_round_trip_and_bad_solution() -> None:
    assert FAMILY.solution_from_dict(FAMILY.solution_to_dict(GOOD)) == GOOD
    with pytest.raises(InstanceError) as err:
        FAMILY.solution_from_dict({"groups": [{"jobs": [], "gpu_type": "", "gpus": [-1], "start": -2}]})
    paths = {p.path for p in err.value.problems}
    assert {"groups[0].jobs", "groups[0].gpu_type", "groups[0].gpus[0]", "groups[0].start"} <= paths


def test_hand_computed_objective() -> None:
    """Pair (r1, b1) on A800 at 543 ms/iteration; r2 alone on A10 at 339 ms/iteration."""
    inst = from_dict(tiny_document())
    FAMILY.validate(inst, GOOD)
    ev = FAMILY.evaluate(inst, GOOD)
    r1 = 5.0 + 200 * 0.543
    b1 = r1 + 100 * 0.445
    r2 = 10.0 + 100 * 0.339
    jct = [r1 - 0.0, b1 - 5.0, r2 - 10.0]
    assert ev.metrics["mean_jct_s"] == pytest.approx(sum(jct) / 3)
    assert ev.metrics["late_jobs"] == 1.0  # r1 misses its 60 s deadline
    assert ev.objective == pytest.approx(sum(jct) / 3 / 3600 + 1 / 3)
    assert ev.metrics["makespan_s"] == pytest.approx(b1)


def test_modes() -> None:
    late = from_dict(tiny_document(objective="late-count"))
    mean = from_dict(tiny_document(objective="mean-jct"))
    assert FAMILY.evaluate(late, GOOD).objective == 1.0
    assert FAMILY.evaluate(mean, GOOD).objective == pytest.approx(FAMILY.evaluate(mean, GOOD).metrics["mean_jct_s"])


def _violations(solution: PackingSolution) -> str:
    inst = from_dict(tiny_document())
    with pytest.raises(ValidationError) as err:
        FAMILY.validate(inst, solution)
    return "\n".join(err.value.violations)


def test_validator_lists_every_rule() -> None:
    text = _violations(
        _solution(
            (("r1", "b1", "r2", "y", "z"), "A800", (0,), 0.0),
            (("r1", "x"), "H100", (0,), 0.0),
        )
    )
    assert "holds 5 jobs (a group holds 1 to 4)" in text
    assert "unknown job 'x'" in text
    assert "unknown GPU type 'H100'" in text
    assert "starts at 0.0 before job 'b1' arrives" in text
    assert "job 'r1' placed 2 times" in text


def test_validator_gpu_rules() -> None:
    text = _violations(_solution((("r1",), "A10", (0, 2), 0.0), (("b1", "r2"), "A800", (0,), 10.0)))
    assert "out of range" in text
    assert "uses 2 GPUs, its jobs demand 1" in text
    doc = tiny_document()
    doc["jobs"][1]["gpus"] = 2
    with pytest.raises(ValidationError, match=r"demand different GPU counts \[1, 2\] \(eq. 3\)"):
        FAMILY.validate(from_dict(doc), GOOD)


def test_validator_rejects_overlapping_capacity() -> None:
    inst = from_dict(tiny_document())
    pair_end = 5.0 + 200 * 0.543 + 100 * 0.445
    clash = _solution((("r1", "b1"), "A800", (0,), 5.0), (("r2",), "A800", (0,), pair_end - 1))
    with pytest.raises(ValidationError, match=r"GPU A800#0: groups\[0\].*overlaps groups\[1\]"):
        FAMILY.validate(inst, clash)
    FAMILY.validate(inst, _solution((("r1", "b1"), "A800", (0,), 5.0), (("r2",), "A800", (0,), pair_end)))


def test_candidate_groups_export() -> None:
    inst = from_dict(tiny_document())
    table = dict(candidate_groups(inst))
    assert set(table) == {("r1",), ("b1",), ("r2",), ("r1", "b1"), ("r1", "r2"), ("b1", "r2")}
    a800 = table[("r1", "b1")][0]
    assert a800.interleaved_ms == 543 and a800.standalone_ms == (145, 445)
    assert a800.completion == pytest.approx((108.6, 153.1))


def test_audit_rows_are_json_and_match_the_timelines() -> None:
    from packgap.packing import audit_rows

    inst = from_dict(tiny_document())
    rows = audit_rows(inst)
    assert len(rows) == 6 * 2
    row = next(r for r in rows if r["jobs"] == ["r1", "b1"] and r["gpu_type"] == "A800")
    assert row["interleaved_ms"] == 543 and row["duration_s"] == pytest.approx(153.1)
    assert json.loads(jsonio.dumps(rows))[0]["jobs"] == rows[0]["jobs"]
