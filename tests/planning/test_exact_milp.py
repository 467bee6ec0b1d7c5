"""The big-M-free positional planning MILP (packgap.models.planning.milp) against a brute force."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from packgap.analysis.planning.methods import METHODS
from packgap.analysis.run import solve
from packgap.gpus import GpuType
from packgap.planning import FAMILY, GpuSequence, Group, PlanningInstance, PlanningSolution
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions

BY_NAME = {m.name: m for m in METHODS}
#: A safety net, not a measure: these MILPs prove optimality in about a second on a quiet
#: machine, but took over 20 s under a load average of 10 and failed the proof.
OPTIONS = SolveOptions(time_limit=120.0)


def brute_force(instance: PlanningInstance) -> float:
    """Every way to deal the groups onto the GPUs as ordered sequences (each GPU runs its
    sequence back to back from 0, as the evaluator schedules it)."""
    gpus = [(t.name, j) for t in instance.gpu_types for j in range(t.count)]
    ids = [g.id for g in instance.groups]
    best = float("inf")
    for order in itertools.permutations(ids):
        for cuts in itertools.combinations_with_replacement(range(len(ids) + 1), len(gpus) - 1):
            bounds = (0, *cuts, len(ids))
            sequences = tuple(
                GpuSequence(name, j, order[bounds[i] : bounds[i + 1]])
                for i, (name, j) in enumerate(gpus)
                if bounds[i] < bounds[i + 1]
            )
            best = min(best, FAMILY.evaluate(instance, PlanningSolution(sequences)).objective)
    return best


@st.composite
def tiny(draw: st.DrawFn) -> PlanningInstance:
    types = (GpuType("fast", draw(st.integers(1, 2))), GpuType("slow", 1))
    groups = tuple(
        Group(
            f"g{i}",
            (float(draw(st.integers(1, 50))), float(draw(st.integers(1, 80)))),
            float(draw(st.integers(1, 120))),
            (f"g{i}",),
        )
        for i in range(draw(st.integers(1, 5)))
    )
    weight = draw(st.sampled_from((0.0, 0.5, 1.0, 3.0)))
    return PlanningInstance("tiny", types, groups, weight)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny())
def test_milp_is_exact_on_tiny_instances(inst: PlanningInstance) -> None:
    optimum = brute_force(inst)
    result = solve(FAMILY, inst, BY_NAME["exact-milp"], options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.bound is not None and result.bound <= optimum + 1e-6 * max(1.0, optimum)
    assert result.objective == pytest.approx(optimum, rel=1e-9, abs=1e-9)
    assert result.bound == pytest.approx(optimum, rel=1e-6, abs=1e-6)  # proven, not just found


@pytest.mark.parametrize(("groups", "seed", "squeeze"), [(8, 7, 0.15), (10, 1, 0.2), (12, 3, 1.0)])
def test_milp_and_cpsat_agree_with_binding_deadlines(groups: int, seed: int, squeeze: float) -> None:
    """Deadlines squeezed so that tardiness counts (the generator's are loose)."""
    from packgap.instances.planning.generator import generate

    inst = generate(groups, seed, gpu_types=(("A800", 1), ("RTX4090", 2)))
    inst = dataclasses.replace(
        inst, groups=tuple(dataclasses.replace(g, deadline=round(g.deadline * squeeze)) for g in inst.groups)
    )
    milp = solve(FAMILY, inst, BY_NAME["exact-milp"], options=OPTIONS)
    cp = solve(FAMILY, inst, BY_NAME["exact-cpsat"], options=SolveOptions(time_limit=2.0))
    assert milp.status == Status.OPTIMAL
    assert cp.bound is not None and milp.objective is not None and cp.bound <= milp.objective + 1e-6
    if cp.status == Status.OPTIMAL:
        assert cp.objective == pytest.approx(milp.objective)


def test_a_timed_out_milp_keeps_its_start_and_a_valid_bound() -> None:
    from packgap.instances.planning.generator import generate

    inst = generate(40, 2, gpu_types=(("A800", 2), ("RTX4090", 4)))
    inst = dataclasses.replace(
        inst, groups=tuple(dataclasses.replace(g, deadline=round(g.deadline * 0.1)) for g in inst.groups)
    )
    result = solve(FAMILY, inst, BY_NAME["exact-milp"], options=SolveOptions(time_limit=0.3))
    horn = solve(FAMILY, inst, BY_NAME["exact-flow"], options=OPTIONS).bound
    assert result.status == Status.TIMEOUT and result.objective is not None and horn is not None
    assert result.bound is not None
    assert horn <= result.bound <= result.objective + 1e-6
    for name in ("mchp", "fifo", "edf", "exact-flow"):
        other = solve(FAMILY, inst, BY_NAME[name], options=OPTIONS)
        assert other.objective is not None and result.objective <= other.objective + 1e-9
