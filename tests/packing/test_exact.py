from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from packgap.analysis.method import RunContext
from packgap.analysis.packing.methods import METHODS, PIPELINES
from packgap.errors import PackgapError
from packgap.gpus import GpuType
from packgap.models.packing.cpsat import build_cpsat
from packgap.packing import FAMILY, Job, PackingInstance
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions
from tests.packing.strategies import BERT, RESNET, grid_instances

EXACT = {m.name: m for m in METHODS if m.exact}
OPTIONS = SolveOptions(time_limit=20.0)


def _solve(name: str, inst: PackingInstance, options: SolveOptions = OPTIONS, **params: object):  # type: ignore[no-untyped-def]
    method = EXACT[name]
    out = method.run(inst, RunContext(options, method.resolve_params(params)))
    assert out.solution is not None
    FAMILY.validate(inst, out.solution)
    return out, FAMILY.evaluate(inst, out.solution).objective


def _table3(objective: str, deadlines: tuple[float, float], gpus: int = 1) -> PackingInstance:
    jobs = (
        Job("resnet", 0.0, deadlines[0], 1, 1000, "resnet", "before_forward", (RESNET,)),
        Job("bert", 0.0, deadlines[1], 1, 1000, "bert", "before_communication", (BERT,)),
    )
    return PackingInstance("table3", (GpuType("G", gpus),), jobs, objective=objective)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["exact-milp", "exact-cpsat"])
def test_table3_jobs_hand_optimum(name: str) -> None:
    """One GPU; alone 145 s and 445 s, interleaved 543 s per 1,000 iterations.

    Mean JCT: ResNet then BERT (145, 590) -> 367.5, beating the pair (543, 543).
    Late count with both deadlines at 560 s: only the pair (543 s) meets both.
    """
    out, value = _solve(name, _table3("mean-jct", (1e4, 1e4)))
    assert out.status == Status.OPTIMAL and value == pytest.approx(367.5)
    out, value = _solve(name, _table3("late-count", (560.0, 560.0)))
    assert out.status == Status.OPTIMAL and value == 0.0
    assert [len(g.jobs) for g in out.solution.groups] == [2]


def test_milp_needs_one_demand() -> None:
    inst = _table3("mean-jct", (1e4, 1e4), gpus=2)
    mixed = PackingInstance(inst.name, inst.gpu_types, (inst.jobs[0], Job(**{**inst.jobs[1].__dict__, "gpus": 2})))
    with pytest.raises(PackgapError, match="one GPU demand"):
        _solve("exact-milp", mixed)
    out, value = _solve("exact-cpsat", mixed)
    # 1 + 2 GPUs do not fit on 2 at once: ResNet (145 s) then BERT (to 590 s).
    assert out.status == Status.OPTIMAL and value == pytest.approx((145 + 590) / 2 / 3600)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_instances())
def test_milp_and_cpsat_agree_and_beat_every_pipeline(inst: PackingInstance) -> None:
    assert build_cpsat(inst).exact
    milp, v_milp = _solve("exact-milp", inst)
    cp, v_cp = _solve("exact-cpsat", inst)
    if milp.status == Status.OPTIMAL and cp.status == Status.OPTIMAL:
        assert v_milp == pytest.approx(v_cp, rel=1e-6, abs=1e-9)
    for out, value in ((milp, v_milp), (cp, v_cp)):
        if out.bound is not None:
            assert out.bound <= value + 1e-6 * max(1.0, abs(value))
    best = min(v for out, v in ((milp, v_milp), (cp, v_cp)) if out.status == Status.OPTIMAL)
    for method in PIPELINES:
        solution = method.run(inst, RunContext(OPTIONS, method.resolve_params({}))).solution
        assert solution is not None
        assert best <= FAMILY.evaluate(inst, solution).objective + 1e-9


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_instances(mixed=True))
def test_cpsat_mixed_demand_answers_validate(inst: PackingInstance) -> None:
    out, value = _solve("exact-cpsat", inst, hint="none")
    if out.status == Status.OPTIMAL:
        assert out.bound == pytest.approx(value, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("seed", [1, 3])
def test_generated_instances_are_exact_for_cpsat_and_agree(seed: int) -> None:
    from packgap.instances.packing.generator import generate

    inst = generate(6, seed, gpu_types=(("A800", 2), ("A10", 4)))
    assert build_cpsat(inst, tick=1e-6).exact  # microsecond data -> exact on 1 us ticks
    assert not build_cpsat(inst).exact  # the automatic tick is coarser (MAX_TICKS)
    milp, v_milp = _solve("exact-milp", inst)
    cp, v_cp = _solve("exact-cpsat", inst, resolution=1e-6)
    assert milp.status == cp.status == Status.OPTIMAL
    assert v_milp == pytest.approx(v_cp, rel=1e-9)
    coarse, _ = _solve("exact-cpsat", inst)
    assert coarse.bound is not None and coarse.bound <= v_milp + 1e-9  # relaxed rounding: still a bound


def test_cpsat_hint_names() -> None:
    from packgap.errors import UnknownNameError

    inst = _table3("mean-jct", (1e4, 1e4))
    for hint in ("best", "none", "dab+edf"):
        _, value = _solve("exact-cpsat", inst, hint=hint)
        assert value == pytest.approx(367.5)
    with pytest.raises(UnknownNameError, match="hint"):
        _solve("exact-cpsat", inst, hint="greedy")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_instances(max_jobs=5))
def test_exact_planning_sits_between_the_optimum_and_its_pipelines(inst: PackingInstance) -> None:
    joint, v_joint = _solve("exact-cpsat", inst)
    methods = {m.name: m for m in METHODS}
    for packer in ("dab", "blossom", "none"):
        plan = methods[f"{packer}+exact-plan"]
        out = plan.run(inst, RunContext(OPTIONS, plan.resolve_params({})))
        assert out.solution is not None and out.bound is None
        FAMILY.validate(inst, out.solution)
        value = FAMILY.evaluate(inst, out.solution).objective
        if joint.status == Status.OPTIMAL:
            assert v_joint <= value + 1e-9
        if "OPTIMAL" in out.message:
            for planner in ("mchp", "fifo", "edf"):
                pipe = methods[f"{packer}+{planner}"]
                solution = pipe.run(inst, RunContext(OPTIONS, pipe.resolve_params({}))).solution
                assert solution is not None
                assert value <= FAMILY.evaluate(inst, solution).objective + 1e-9
