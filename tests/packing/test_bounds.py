from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from packgap.analysis.method import RunContext
from packgap.analysis.packing.methods import METHODS, PIPELINES
from packgap.instances.packing.generator import generate
from packgap.models.packing.bounds import job_floors, lower_bound, srpt_total_completion
from packgap.packing import FAMILY, PackingInstance
from packgap.packing.timeline import candidate_groups
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions
from tests.packing.strategies import grid_instances, instances


def test_srpt_hand_example() -> None:
    # Job 0 (3 s) from 0 is preempted at 1 by job 1 (1 s): job 1 ends at 2, job 0 at 4.
    assert srpt_total_completion(np.array([0.0, 1.0]), np.array([3.0, 1.0])) == 6.0
    assert srpt_total_completion(np.array([5.0]), np.array([2.0])) == 7.0


@settings(max_examples=30, deadline=None)
@given(instances(max_jobs=6))
def test_job_floors_are_the_minimum_over_every_group(inst: PackingInstance) -> None:
    floors = job_floors(inst)
    index = inst.job_index()
    best = np.full(len(inst.jobs), np.inf)
    for ids, lines in candidate_groups(inst):
        for line, t in zip(lines, inst.gpu_types, strict=True):
            if inst.jobs[index[ids[0]]].gpus <= t.count:
                for j, off in zip(ids, line.completion, strict=True):
                    best[index[j]] = min(best[index[j]], off)
    assert np.all(floors.offset <= best + 1e-9)


def test_bound_below_every_pipeline_on_a_loaded_cluster() -> None:
    inst = generate(150, 2)
    bound = lower_bound(inst)
    for method in PIPELINES:
        solution = method.run(inst, RunContext(SolveOptions(), method.resolve_params({}))).solution
        assert solution is not None
        assert bound.objective <= FAMILY.evaluate(inst, solution).objective
    trivial = sum(j.arrival for j in inst.jobs) + float(job_floors(inst).offset.sum())
    assert bound.sum_completion > trivial  # queueing makes SRPT the binding relaxation


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_instances())
def test_bound_below_the_optimum(inst: PackingInstance) -> None:
    method = {m.name: m for m in METHODS}["exact-cpsat"]
    out = method.run(inst, RunContext(SolveOptions(time_limit=20.0), method.resolve_params({})))
    assert out.solution is not None
    value = FAMILY.evaluate(inst, out.solution).objective
    assert lower_bound(inst).objective <= value + 1e-9
    if out.status == Status.OPTIMAL:
        assert out.bound == pytest.approx(value, rel=1e-6, abs=1e-9)
