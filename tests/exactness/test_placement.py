"""Exactness contract, placement: exact-blocks, exact-milp, exact-cpsat vs every GPU choice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.placement import Job, PlacementInstance
from tests.deadlines import cannot_build
from tests.exactness import brute_placement as brute
from tests.exactness.contract import OPTIONS, at_most, check, run_all, takes_no_solver
from tests.solvers.others import OTHER_SOLVERS

CLASSES = ("A", "B")


@st.composite
def rounds(draw: Any, gpus: int = 6, jobs: int = 3) -> PlacementInstance:
    per_node = draw(st.integers(1, 3))
    nodes = draw(st.integers(1, max(1, gpus // per_node)))
    n = nodes * per_node
    unavailable = frozenset(draw(st.sets(st.integers(0, n - 1), max_size=max(0, n - 1))))
    free = n - len(unavailable)
    # scores from a short list make ties; L_across 1 makes spreading free
    score = st.sampled_from([0.8, 1.0, 1.0, 1.25, 2.0]) | st.floats(0.5, 3.0)
    demands: list[int] = []
    for _ in range(draw(st.integers(1, jobs))):
        if sum(demands) < free:
            demands.append(draw(st.integers(1, min(3, free - sum(demands)))))
    models = ("m1", "m2")
    return PlacementInstance(
        name="placement-brute",
        nodes=nodes,
        gpus_per_node=per_node,
        classes=CLASSES,
        pm_scores={c: tuple(draw(score) for _ in range(n)) for c in CLASSES},
        locality_penalty=draw(st.sampled_from([1.0, 1.5, 2.0])),
        jobs=tuple(
            Job(
                f"j{i}",
                d,
                draw(st.sampled_from(CLASSES)),
                draw(st.sampled_from(models)),
                draw(st.sampled_from([1.0, 2.5])),
            )
            for i, d in enumerate(demands)
        ),
        unavailable=unavailable,
        model_penalties=draw(st.sampled_from([{}, {"m2": 3.0}])),
        objective=draw(st.sampled_from(["slowdown", "work"])),
    )


def _floored(instance: PlacementInstance) -> dict[str, float]:
    """exact-cpsat floors every cell cost to its resolution (1e-6): its own objective lies within
    jobs x 1e-6 of the true one (packgap.models.placement.cpsat)."""
    return {"exact-cpsat": len(instance.jobs) * 1e-6}


def _check(instance: PlacementInstance, solver: str = "highs") -> None:
    optimum, _ = brute.optimum(instance)
    if solver == "highs":
        check("placement", instance, optimum, internal_tol=_floored(instance))
    else:
        on = replace(OPTIONS, solver=solver)
        check("placement", instance, optimum, skip=takes_no_solver("placement"), options=on)


@pytest.mark.parametrize("solver", OTHER_SOLVERS)
@settings(max_examples=4, deadline=None, derandomize=True)
@given(instance=rounds())
def test_random_rounds_on_other_solvers(solver, instance):
    _check(instance, solver)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(rounds())
def test_random_rounds(instance):
    _check(instance)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, derandomize=True)
@given(rounds(8, 4))
def test_random_rounds_slow(instance):
    _check(instance)


def test_cpsat_floored_costs_prove_no_optimum():
    """Issue 17: CP-SAT floors costs to its 1e-6 grid; with a score off that grid its optimum
    is not proven the true one (certified gap 1.3e-6), so the answer is feasible, not optimal."""
    instance = PlacementInstance(
        "off-grid", 1, 1, CLASSES, {"A": (0.55859375,), "B": (0.8,)}, 1.0, (Job("j0", 1, "A", "m1"),)
    )
    optimum, _ = brute.optimum(instance)
    cpsat = check("placement", instance, optimum, internal_tol=_floored(instance))["exact-cpsat"]
    assert cpsat.status == "feasible" and cpsat.bound is not None and cpsat.bound < optimum == cpsat.objective


@settings(max_examples=15, deadline=None, derandomize=True)
@given(rounds())
def test_the_timeout_bound_holds(instance):
    """Issue 17, item 3: stopped before building, exact-milp and exact-cpsat answer with the best
    heuristic and each job's cheapest cell; that bound is at most the brute-force optimum.

    The builds are stopped by stand-ins, not by a 1 ms limit: under load a 1 ms limit also cut
    PAL now and then, before any cell existed (issue 31: no test may depend on the speed of the clock)."""
    optimum, _ = brute.optimum(instance)
    with (
        mock.patch("packgap.models.placement.milp.build_milp", cannot_build),
        mock.patch("packgap.models.placement.cpsat.build_cpsat", cannot_build),
    ):
        results = run_all("placement", instance, skip=("exact-blocks",))
    for name in ("exact-milp", "exact-cpsat"):
        r = results[name]
        # A timeout whose bound meets its answer is promoted to optimal (certified gap 0).
        assert not instance.jobs or "time limit" in r.message, (name, r.message)
        assert r.status == "timeout" or (r.status == "optimal" and r.gap == 0), (name, r.status)
        assert r.bound is not None and at_most(r.bound, optimum) and at_most(optimum, r.objective), name
