"""The local search that gives the sharing branch and bound its first incumbent."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.analysis.sharing.exact_scaling import instance
from packgap.analysis.sharing.runs import best_heuristic
from packgap.models.sharing.branch_bound import solve
from packgap.models.sharing.dominance import Rules
from packgap.models.sharing.incumbent import improve
from packgap.models.sharing.start_list import Start, schedule_of
from packgap.sharing import FAMILY, Perf, SharingInstance
from packgap.sharing.progress import replay
from tests.sharing.test_exact_rules import instances


@settings(max_examples=25, deadline=None)
@given(instances(), st.booleans())
def test_decoded_schedules_are_feasible_and_priced_as_replayed(inst: SharingInstance, every_batch: bool) -> None:
    """Feasible, and without ``every_batch`` in the restricted class: each job at the largest
    sub-batch that fits beside the jobs on its GPUs when it starts."""
    perf = Perf(inst)
    value, starts = improve(inst, perf, None, every_batch, math.inf)
    solution = schedule_of(inst, [Start(*s) for s in starts], perf)
    FAMILY.validate(inst, solution)
    assert sum(j.finish for j in solution.jobs) == pytest.approx(value, rel=1e-9)
    if not every_batch:
        for k, (j, t, gpus, b) in enumerate(starts):
            # The jobs holding a GPU of j's when it starts: started before, not finished yet.
            on = [s for s in starts[:k] if solution.jobs[s[0]].finish > t + 1e-6]
            used = max(sum(perf.memory(inst.jobs[s[0]].id, s[3]) for s in on if g in s[2]) for g in gpus)
            assert b == perf.largest_fitting(inst.jobs[j], inst.cluster.gpu_memory_gb - used)


def test_local_search_finds_the_long_job_that_should_wait() -> None:
    """8 jobs, seed 5: every heuristic starts the 4,436 s BERT job on idle GPUs at 16 s; the
    optimum (16,459 s) holds it back. The local search comes within 2.5 % of it, and the
    search needs far fewer nodes from there."""
    inst = instance(8, 5)
    heuristic = best_heuristic(inst)
    perf = Perf(inst)
    before = sum(r.finish for r in replay(inst, heuristic, perf).run.records.values())
    value, _ = improve(inst, perf, heuristic, True, math.inf)
    assert before > 24_000
    assert value < 16_459 * 1.025
    # Depth first throughout: the best-first stretches between dives expand the nodes below the
    # optimum's value in bound order, so the incumbent they start from matters less.
    plain = solve(inst, heuristic, time_limit=None, rules=Rules(local_search=False), dive=math.inf)
    better = solve(inst, heuristic, time_limit=None, dive=math.inf)
    assert better.sum_completion == pytest.approx(plain.sum_completion, rel=1e-9)
    assert better.nodes < plain.nodes / 2


def test_search_is_deterministic() -> None:
    inst = instance(7, 3)
    first, second = (solve(inst, best_heuristic(inst), time_limit=None) for _ in range(2))
    assert (first.nodes, first.sum_completion) == (second.nodes, second.sum_completion)
