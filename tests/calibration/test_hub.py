"""The calibration hub: file form, topology and data rules, validator and evaluator by hand."""

from __future__ import annotations

import copy
import json

import pytest

from packgap.calibration import FAMILY, CalibrationSolution, JobCalibration
from packgap.calibration import instance as instance_module
from packgap.calibration import solution as solution_module
from packgap.calibration.speed import worker_speed
from packgap.errors import InstanceError, ValidationError
from packgap.instances.calibration.jobsets import generate, table3, table3_sets
from tests.calibration.conftest import tiny_document


def solution(shares, samples):
    return CalibrationSolution(
        (
            JobCalibration("big", tuple(shares[0]), tuple(samples[0])),
            JobCalibration("small", tuple(shares[1]), tuple(samples[1])),
        )
    )


@pytest.mark.parametrize("name", sorted(table3_sets()))
def test_table3_round_trip(name):
    inst = table3(name)
    assert instance_module.from_dict(json.loads(json.dumps(instance_module.to_dict(inst)))) == inst


def test_generator_is_deterministic():
    a = json.dumps(instance_module.to_dict(generate(6, seed=3)))
    assert a == json.dumps(instance_module.to_dict(generate(6, seed=3)))
    assert a != json.dumps(instance_module.to_dict(generate(6, seed=4)))


def test_evaluator_by_hand(tiny):
    # Free competition: big's worker on GPU 0 runs at 100 x 0.5, on GPU 1 at 100; small at 50 x 0.8.
    sol = solution([[100, 100], [100]], [[50, 50], [25]])
    FAMILY.validate(tiny, sol)
    big = 10 * (0.1 + max(50 / 50, 50 / 100))
    small = 4 * (25 / 40)
    ev = FAMILY.evaluate(tiny, sol)
    assert ev.objective == pytest.approx((big + small) / 2)
    assert ev.metrics["makespan_s"] == pytest.approx(big)
    assert ev.metrics["max_lateness_s"] == pytest.approx(small - 1)
    # LGRR: small at 50 % (its cap) halves the overlap: big runs at 100 x (1 - 0.5 x 0.5) on GPU 0,
    # small at 50 x (1 - 0.2 x 0.5); a LISS split 75 : 100 makes both of big's workers finish together.
    sol = solution([[100, 100], [50]], [[100 * 75 / 175, 100 * 100 / 175], [25]])
    assert FAMILY.evaluate(tiny, sol).objective == pytest.approx((10 * (0.1 + 100 / 175) + 4 * 25 / 45) / 2)


def test_speed_anchors():
    assert worker_speed(100, 60, 0.5, 0.7, 100, 0) == pytest.approx(100)
    assert worker_speed(100, 60, 0.5, 0.7, 100, 100) == pytest.approx(70)
    assert worker_speed(100, 60, 0.5, 0.7, 15, 0) == pytest.approx(50)


def paths(exc: InstanceError) -> list[str]:
    return [p.path for p in exc.problems]


def test_topology_and_data_problems_name_their_fields():
    doc = tiny_document()
    doc["jobs"].append({"id": "third", "model": "B", "batch": 8, "remaining_steps": 1, "deadline": 1, "gpus": [0]})
    doc["jobs"].append({"id": "far", "model": "C", "batch": 8, "remaining_steps": 1, "deadline": 1, "gpus": [7]})
    with pytest.raises(InstanceError) as err:
        instance_module.from_dict(doc)
    found = paths(err.value)
    assert "jobs[2].gpus[0]" in found  # a third worker on GPU 0
    assert "jobs[3].gpus[0]" in found  # GPU 7 does not exist / not a GPU of J_max
    assert "jobs[3].model" in found  # no speed data for C
    assert any("does not exist" in str(p) for p in err.value.problems)


def test_fewest_nodes_and_missing_pair():
    doc = tiny_document(cluster={"nodes": 2, "gpus_per_node": 2})
    doc["jobs"][0]["gpus"] = [0, 2]
    doc["jobs"][1]["gpus"] = [2]
    doc["throughput"]["pairs"] = doc["throughput"]["pairs"][:1]
    with pytest.raises(InstanceError) as err:
        instance_module.from_dict(doc)
    assert set(paths(err.value)) == {"jobs[0].gpus", "jobs[1].model"}


def test_schema_problems_all_at_once():
    doc = copy.deepcopy(tiny_document(granularity=120, objective="speed"))
    doc["jobs"][1]["batch"] = -1
    with pytest.raises(InstanceError) as err:
        instance_module.from_dict(doc)
    assert {"granularity", "objective", "jobs[1].batch"} <= set(paths(err.value))


@pytest.mark.parametrize(
    ("shares", "samples", "expected"),
    [
        ([[100, 120], [100]], [[50, 50], [25]], "jobs[0].shares[1]: share 120 outside [0, 100]"),
        ([[100, 100], [55]], [[50, 50], [25]], "jobs[1].shares[0]: share 55 is off the 10 % grid"),
        ([[100, 100], [100]], [[50, 40], [25]], "jobs[0].samples: sum 90 differs"),
        ([[0, 100], [100]], [[50, 50], [25]], "jobs[0].samples[0]: the worker has speed 0"),
    ],
)
def test_validator_names_the_field(tiny, shares, samples, expected):
    with pytest.raises(ValidationError) as err:
        FAMILY.validate(tiny, solution(shares, samples))
    assert any(v.startswith(expected) for v in err.value.violations), err.value.violations


def test_validator_missing_and_unknown_jobs(tiny):
    sol = CalibrationSolution((JobCalibration("ghost", (100,), (1,)),))
    with pytest.raises(ValidationError) as err:
        FAMILY.validate(tiny, sol)
    assert any("unknown job 'ghost'" in v for v in err.value.violations)
    assert any("not calibrated: big, small" in v for v in err.value.violations)


def test_solution_round_trip(tiny):
    sol = CalibrationSolution(solution([[100, 90], [40]], [[50, 50], [25]]).jobs, {"evaluations": 3.0})
    assert solution_module.from_dict(solution_module.to_dict(sol)) == sol
    with pytest.raises(InstanceError):
        solution_module.from_dict({"jobs": [{"id": "big", "shares": ["x"], "samples": []}], "search": 3})
