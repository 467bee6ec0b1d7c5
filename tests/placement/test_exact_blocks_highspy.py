"""The raw highspy back-end the block method solves with (``packgap.solvers.matrix``): optimum and
bound of a small MIP, its LP relaxation, infeasibility, a start vector, and a time limit that
still returns an incumbent with a valid bound."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from packgap.analysis.placement.methods import BY_NAME
from packgap.analysis.run import solve
from packgap.instances.placement.rounds import generate_round
from packgap.models.placement.block_paths import build_blocks, start_values
from packgap.placement import FAMILY
from packgap.result import Status
from packgap.solvers.matrix import ArrayMip, solve_mip
from packgap.solvers.outcome import SolveOptions


def _knapsack(capacity: float) -> ArrayMip:
    """max 5a + 4b + 3c s.t. 2a + 3b + c <= capacity, binaries (as a minimisation)."""
    return ArrayMip(
        cost=np.array([-5.0, -4.0, -3.0]),
        col_lower=np.zeros(3),
        col_upper=np.ones(3),
        integer=np.ones(3, dtype=bool),
        start=np.array([0, 1, 2, 3], dtype=np.int32),
        index=np.zeros(3, dtype=np.int32),
        value=np.array([2.0, 3.0, 1.0]),
        row_lower=np.array([-np.inf]),
        row_upper=np.array([capacity]),
    )


def test_mip_optimum_bound_and_lp_relaxation() -> None:
    mip = solve_mip(_knapsack(4.0), SolveOptions())
    assert mip.outcome.status == Status.OPTIMAL
    assert mip.outcome.objective == pytest.approx(-8.0) and mip.outcome.bound == pytest.approx(-8.0)
    assert mip.values is not None and np.allclose(mip.values, [1, 0, 1])
    lp = solve_mip(replace(_knapsack(4.0), integer=np.zeros(3, dtype=bool)), SolveOptions())
    assert lp.outcome.status == Status.OPTIMAL and lp.outcome.objective == pytest.approx(-8.0 - 4.0 / 3.0)


def test_infeasible_is_a_status() -> None:
    bad = replace(_knapsack(4.0), row_lower=np.array([7.0]), row_upper=np.array([7.0]))
    mip = solve_mip(bad, SolveOptions())
    assert mip.outcome.status == Status.INFEASIBLE and mip.values is None


def test_start_vector_is_the_first_incumbent() -> None:
    inst = generate_round(64, 21, 1)
    model = build_blocks(inst)
    placed = solve(FAMILY, inst, BY_NAME["pal+blocks"], options=SolveOptions()).solution
    assert placed is not None
    start = start_values(model, FAMILY.solution_from_dict(placed))
    assert start is not None
    mip = solve_mip(model.mip, SolveOptions(time_limit=0.5), start)
    assert mip.outcome.status == Status.TIMEOUT
    assert mip.outcome.objective is not None and mip.outcome.objective <= model.mip.cost @ start + 1e-9
    assert mip.outcome.bound is not None and mip.outcome.bound <= mip.outcome.objective
