"""Instance reader, validator and evaluator of the sharing family."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from packgap import jsonio
from packgap.errors import InstanceError, ValidationError
from packgap.instances.sharing.generator import generate
from packgap.sharing import FAMILY, JobSchedule, Segment, SharingSolution, instance
from packgap.sharing.perf import iteration_time, ladder, steps
from tests.sharing.helpers import solo_model, tiny


def one(jid: str, start: float, gpus: tuple[int, ...], finish: float, batch: int = 4, co: str | None = None):
    return JobSchedule(jid, batch, steps(4, batch), (Segment(start, gpus),), finish, co)


def test_round_trip_is_byte_identical() -> None:
    inst = generate(30, 3)
    text = jsonio.dumps(instance.to_dict(inst))
    again = instance.from_dict(json.loads(text))
    assert jsonio.dumps(instance.to_dict(again)) == text
    assert jsonio.dumps(instance.to_dict(generate(30, 3))) == text


def _bad_document() -> dict[str, Any]:
    doc = instance.to_dict(generate(5, 1))
    doc = copy.deepcopy(doc)
    doc["interference"]["default"] = 0.8
    doc["jobs"][0]["arrival"] = -3
    doc["jobs"][1]["gpus"] = 65
    doc["jobs"][2]["model"] = "gpt5"
    heavy = next(m for m in doc["models"] if m["name"] == doc["jobs"][3]["model"])
    heavy["mem_base_gb"] = 50.0
    return doc


def test_reader_reports_every_problem_with_its_path() -> None:
    with pytest.raises(InstanceError) as err:
        instance.from_dict(_bad_document())
    paths = {p.path for p in err.value.problems}
    assert "interference.default" in paths
    assert "jobs[0].arrival" in paths
    assert "jobs[1].gpus" in paths
    assert "jobs[2].model" in paths
    assert "jobs[3].batch" in paths


def test_eq7_with_accumulation_and_overlap() -> None:
    m = solo_model("m", 0.5)
    m = type(m)("m", 0.1, 0.01, 0.2, 0.0, 0.0, 2.0, 1.0, 0.1)
    # B = 32, b = 16 -> s = 2: one extra t_comp(16) plus the overlapped last step.
    comp = 0.1 + 0.01 * 16
    assert iteration_time(m, 32, 16, 4) == pytest.approx(comp + (comp**2 + 0.2**2) ** 0.5)
    assert iteration_time(m, 32, 16, 1) == pytest.approx(2 * comp)
    assert ladder(12) == (12, 6, 3, 2, 1)
    assert steps(12, 5) == 3


def test_two_sharing_jobs_follow_eqs_5_and_6() -> None:
    inst = tiny([(0.0, 1, 100), (0.0, 1, 50)], xi=1.2, gpus=1)
    # Both on GPU 0 from t = 0: job 1 ends at 60, job 0 has done 50 and ends at 110.
    sol = SharingSolution((one("j0", 0.0, (0,), 110.0), one("j1", 0.0, (0,), 60.0, co="j0")))
    FAMILY.validate(inst, sol)
    ev = FAMILY.evaluate(inst, sol)
    assert ev.objective == pytest.approx(85.0)
    assert ev.metrics["makespan_s"] == pytest.approx(110.0)


@pytest.mark.parametrize(
    ("solution", "message"),
    [
        (SharingSolution((one("j0", 0.0, (0,), 100.0),)), "never scheduled"),
        (SharingSolution((one("j0", 0.0, (0,), 100.0), one("j1", 0.0, (0, 1), 50.0))), "gang"),
        (SharingSolution((one("j0", 0.0, (0,), 100.0), one("j1", 0.0, (7,), 50.0))), "beyond the cluster"),
        (SharingSolution((one("j0", 0.0, (0,), 99.0), one("j1", 0.0, (1,), 50.0))), "claims to finish"),
        (
            SharingSolution((one("j0", 0.0, (0,), 100.0), JobSchedule("j1", 3, 1, (Segment(0.0, (1,)),), 100.0))),
            "accumulation steps",
        ),
        (SharingSolution((one("j0", 0.0, (0,), 100.0), one("j1", 0.0, (1,), 50.0, co="j0"))), "co-runner"),
    ],
)
def test_validator_names_broken_rules(solution: SharingSolution, message: str) -> None:
    inst = tiny([(0.0, 1, 100), (0.0, 1, 50)], xi=1.2)
    with pytest.raises(ValidationError, match=message):
        FAMILY.validate(inst, solution)


def test_validator_checks_capacity_memory_arrival_and_preemption() -> None:
    inst = tiny([(0.0, 1, 10), (0.0, 1, 10), (5.0, 1, 10)], xi=1.0, gpus=1, memory=2.0)
    three = SharingSolution(tuple(one(f"j{i}", 5.0, (0,), 15.0) for i in range(3)))
    with pytest.raises(ValidationError) as err:
        FAMILY.validate(inst, three)
    text = str(err.value)
    assert "> C = 2" in text and "GB" in text
    early = SharingSolution((one("j0", 0.0, (0,), 10.0), one("j1", 10.0, (0,), 20.0), one("j2", 1.0, (0,), 30.0)))
    with pytest.raises(ValidationError, match="before its arrival"):
        FAMILY.validate(inst, early)
    two = JobSchedule("j0", 4, 1, (Segment(0.0, (0,), 5.0), Segment(20.0, (0,))), 25.0)
    resumed = SharingSolution((two, one("j1", 5.0, (0,), 15.0), one("j2", 25.0, (0,), 35.0)))
    with pytest.raises(ValidationError, match="non-preemptive"):
        FAMILY.validate(inst, resumed)
    FAMILY.validate(inst, SharingSolution(resumed.jobs, preemptive=True))


def test_solution_file_round_trip() -> None:
    sol = SharingSolution((JobSchedule("a", 4, 1, (Segment(0.0, (0, 1), 3.0), Segment(5.0, (2, 3))), 9.0, "b"),), True)
    assert FAMILY.solution_from_dict(FAMILY.solution_to_dict(sol)) == sol
