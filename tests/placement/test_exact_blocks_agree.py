"""The block method against the old exact models where both prove optimality, and under time
limits too short to prove anything (issue 11, item 6)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from packgap.analysis.placement.methods import BY_NAME
from packgap.analysis.run import solve
from packgap.instances.placement.rounds import generate_round
from packgap.placement import FAMILY, PlacementInstance
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions
from tests.placement.strategies import rounds

OPTIONS = SolveOptions(time_limit=30, seed=0)


def _objectives(instance: PlacementInstance, methods: tuple[str, ...]) -> dict[str, float]:
    results = {m: solve(FAMILY, instance, BY_NAME[m], options=OPTIONS) for m in methods}
    for name, r in results.items():
        # CP-SAT floors costs off its grid: then it proves its bound, not its answer (issue 17)
        proven = (Status.OPTIMAL, Status.FEASIBLE) if name == "exact-cpsat" else (Status.OPTIMAL,)
        assert r.status in proven and r.objective is not None, (name, r.status, r.message)
    return {name: float(r.objective) for name, r in results.items()}  # type: ignore[arg-type]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_agrees_with_exact_milp_and_cpsat(instance: PlacementInstance) -> None:
    objective = _objectives(instance, ("exact-blocks", "exact-milp", "exact-cpsat"))
    assert objective["exact-blocks"] == pytest.approx(objective["exact-milp"], abs=1e-6)
    assert objective["exact-blocks"] == pytest.approx(objective["exact-cpsat"], abs=1e-5 * max(1, len(instance.jobs)))


@pytest.mark.parametrize("seed", range(2))
def test_agrees_on_generated_rounds(seed: int) -> None:
    inst = generate_round(32, 10, seed, held=0.25, objective="work" if seed else "slowdown")
    objective = _objectives(inst, ("exact-blocks", "exact-milp"))
    assert objective["exact-blocks"] == pytest.approx(objective["exact-milp"], rel=1e-9)


@pytest.fixture(scope="module")
def round64() -> tuple[PlacementInstance, float, float]:
    """A 64-GPU round whose proof needs the pruned MILP: its optimum and pal+blocks' objective."""
    inst = generate_round(64, 21, 1)
    best = solve(FAMILY, inst, BY_NAME["exact-blocks"], options=OPTIONS)
    assert best.status == Status.OPTIMAL and best.objective is not None
    start = solve(FAMILY, inst, BY_NAME["pal+blocks"], options=OPTIONS)
    assert start.objective is not None and start.objective > best.objective
    return inst, best.objective, start.objective


@pytest.mark.parametrize("limit", [0.05, 0.3, 1.0])
def test_timed_out_run_keeps_incumbent_and_valid_bound(round64, limit: float) -> None:  # type: ignore[no-untyped-def]
    inst, optimum, start = round64
    r = solve(FAMILY, inst, BY_NAME["exact-blocks"], options=SolveOptions(time_limit=limit, seed=0))
    assert r.status in (Status.TIMEOUT, Status.OPTIMAL), r.message
    assert r.objective is not None and optimum - 1e-9 <= r.objective <= start + 1e-9
    assert r.bound is not None and r.bound <= optimum + 1e-9
    if r.status == Status.TIMEOUT:
        assert r.gap is not None and r.gap > 0


def test_mip_gap_stops_early_with_a_valid_bound(round64) -> None:  # type: ignore[no-untyped-def]
    inst, optimum, _ = round64
    r = solve(FAMILY, inst, BY_NAME["exact-blocks"], options=SolveOptions(time_limit=30, mip_gap=0.05))
    assert r.status in (Status.FEASIBLE, Status.OPTIMAL)
    assert r.bound is not None and r.bound <= optimum + 1e-9 and r.gap is not None and r.gap <= 0.05
