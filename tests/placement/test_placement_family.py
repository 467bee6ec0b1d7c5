from __future__ import annotations

import pytest

from packgap import jsonio
from packgap.errors import InstanceError, ValidationError
from packgap.placement import FAMILY, PlacementSolution
from packgap.placement.instance import from_dict, to_dict
from tests.placement.round_docs import round_document


def test_round_trip_is_byte_identical() -> None:
    inst = from_dict(round_document())
    again = from_dict(to_dict(inst))
    assert jsonio.dumps(to_dict(again)) == jsonio.dumps(to_dict(inst))
    assert inst.free_gpus() == list(range(8))


def test_bad_instance_lists_every_problem() -> None:
    doc = round_document(locality_penalty=0.5, unavailable=[9])
    doc["pm_scores"]["A"] = [1.0, 2.0]
    doc["jobs"][1]["class"] = "Z"
    doc["jobs"][2]["gpus"] = 0
    with pytest.raises(InstanceError) as err:
        from_dict(doc)
    paths = {p.path for p in err.value.problems}
    expected = {"locality_penalty", "unavailable[0]", "pm_scores.A", "jobs[1].class", "jobs[2].gpus"}
    assert expected <= paths


def test_demand_above_free_gpus_is_rejected() -> None:
    doc = round_document(unavailable=[0, 1, 2])
    with pytest.raises(InstanceError, match="need 6 GPUs but only 5 are free"):
        from_dict(doc)


def test_validator_names_every_violation() -> None:
    inst = from_dict(round_document(unavailable=[7]))
    bad = PlacementSolution({"j1": (0, 0, 9), "j2": (7,), "x": (1,)})
    with pytest.raises(ValidationError) as err:
        FAMILY.validate(inst, bad)
    text = "\n".join(err.value.violations)
    for expected in (
        "GPU 0 given twice",
        "GPU 9 does not exist",
        "held by a sticky job",
        "needs 2 GPU(s), got 1",
        "unknown job 'x'",
        "1 job(s) not placed: j0",
    ):
        assert expected in text


def test_evaluator_applies_eq1() -> None:
    inst = from_dict(round_document())
    sol = PlacementSolution({"j0": (3,), "j1": (0, 1, 4), "j2": (5, 7)})
    FAMILY.validate(inst, sol)
    ev = FAMILY.evaluate(inst, sol)
    # j0: one GPU, 0.99; j1 spans nodes: 1.5 x max(0.9, 1.0, 0.95); j2 within node 1: max(0.95, 1.0)
    assert ev.objective == pytest.approx(0.99 + 1.5 * 1.0 + 1.0)
    assert ev.metrics["spread_jobs"] == 1.0
    weighted = from_dict(round_document(objective="work", model_penalties={"resnet50": 2.0}))
    expected = 100 * 0.99 + 50 * 2.0 + 10 * 1.0
    assert FAMILY.evaluate(weighted, sol).objective == pytest.approx(expected)


def test_solution_round_trip() -> None:
    sol = PlacementSolution({"a": (1, 2)})
    assert FAMILY.solution_from_dict(FAMILY.solution_to_dict(sol)) == sol
    with pytest.raises(InstanceError):
        FAMILY.solution_from_dict({"allocations": {"a": [-1]}})
