from __future__ import annotations

import pytest
from hypothesis import given, settings

from packgap.errors import UnknownNameError
from packgap.heuristics.packing.pipeline import (
    PACKERS,
    PLANNERS,
    PipelineOptions,
    batches,
    pack,
    planning_instances,
    run_pipeline,
)
from packgap.packing import FAMILY, PackingInstance
from packgap.packing.instance import from_dict
from packgap.planning import FAMILY as PLANNING
from tests.packing.strategies import instances, tiny_document


@settings(max_examples=25, deadline=None)
@given(instances(max_jobs=7))
def test_every_pipeline_answer_validates(inst: PackingInstance) -> None:
    for packer in PACKERS:
        for planner in PLANNERS:
            solution = run_pipeline(inst, packer, planner, PipelineOptions())
            FAMILY.validate(inst, solution)
            FAMILY.evaluate(inst, solution)


def test_planning_instances_use_slots_per_demand() -> None:
    doc = tiny_document()
    doc["jobs"][1]["gpus"] = 2
    inst = from_dict(doc)
    groups = pack(inst, "none", PipelineOptions())
    plans = dict(planning_instances(inst, groups, "am"))
    assert [(t.name, t.count) for t in plans[1].gpu_types] == [("A800", 1), ("A10", 2)]
    assert [(t.name, t.count) for t in plans[2].gpu_types] == [("A10", 1)]
    assert [g.jobs for g in plans[1].groups] == [("r1",), ("r2",)]
    assert plans[2].groups[0].deadline == 400.0
    for plan in plans.values():
        PLANNING.instance_from_dict(PLANNING.instance_to_dict(plan))
    FAMILY.validate(inst, run_pipeline(inst, "dab", "mchp", PipelineOptions()))


def test_right_shift_respects_arrivals() -> None:
    inst = from_dict(tiny_document())
    solution = run_pipeline(inst, "blossom", "fifo", PipelineOptions(anti_overpacking=False))
    arrival = {j.id: j.arrival for j in inst.jobs}
    for g in solution.groups:
        assert g.start >= max(arrival[j] for j in g.jobs)
    assert any(len(g.jobs) == 2 for g in solution.groups)


def test_unknown_names_fail_loudly() -> None:
    inst = from_dict(tiny_document())
    with pytest.raises(UnknownNameError, match="planner"):
        run_pipeline(inst, "dab", "sjf", PipelineOptions())  # type: ignore[arg-type]
    with pytest.raises(UnknownNameError, match="packer"):
        run_pipeline(inst, "greedy", "edf", PipelineOptions())  # type: ignore[arg-type]


def test_batches_never_pair_across_windows() -> None:
    inst = from_dict(tiny_document())
    assert [len(b.jobs) for b in batches(inst, 6.0)] == [2, 1]
    assert [len(b.jobs) for b in batches(inst, 0.0)] == [3]
    options = PipelineOptions(window_s=6.0, anti_overpacking=False)
    solution = run_pipeline(inst, "dab", "mchp", options)
    FAMILY.validate(inst, solution)
    assert ("r2",) in [g.jobs for g in solution.groups]


def test_homogeneous_view_blinds_packing_and_planning() -> None:
    from packgap.heuristics.packing.pipeline import homogeneous_view

    inst = from_dict(tiny_document())
    view = homogeneous_view(inst, "A10")
    assert all(len(set(j.profiles)) == 1 for j in view.jobs)
    solution = run_pipeline(inst, "dab", "mchp", PipelineOptions(homogeneous_as="A10"))
    FAMILY.validate(inst, solution)
    with pytest.raises(UnknownNameError, match="GPU type"):
        homogeneous_view(inst, "H100")
