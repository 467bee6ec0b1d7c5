"""The class bound (issue 35): below exact-bb's proven non-preemptive optimum and below every
non-preemptive policy on the small instances the sharing tests draw, above the preemptive
optimum where preemption wins, and carried by ``compare`` for the non-preemptive class only."""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.analysis.sharing import lp_bound
from packgap.analysis.sharing.ceiling import preemptive_ceiling
from packgap.analysis.sharing.runs import NON_PREEMPTIVE
from packgap.instances.sharing.generator import generate
from packgap.models.sharing.branch_bound import solve, subset_table
from packgap.models.sharing.node_bound import root_bound
from packgap.models.sharing.subset_bound import MAX_JOBS, SIZE
from packgap.result import Status
from packgap.sharing import FAMILY, SharingInstance
from tests.sharing.helpers import paired_models, tiny

EXAMPLES = int(os.environ.get("SHARING_EXAMPLES", "10"))


def _class_average(instance: SharingInstance, slots: int, blocks: int = SIZE) -> float:
    """The certified class LP value alone (not raised to the cheap bound), as an average JCT,
    with the rows of blocks of up to ``blocks`` jobs (below 2: the run LP without them)."""
    out = lp_bound.solve(instance, slots, None, runs=True, blocks=blocks)
    assert out.lp_sum is not None, out.status
    return _average(instance, out.lp_sum)


def _below_the_class(instance: SharingInstance, *bounds: float) -> None:
    out = solve(instance, None, time_limit=20)
    assert out.proven
    for bound in bounds:
        assert bound <= FAMILY.evaluate(instance, out.solution).objective * (1 + 1e-9)
        for name, policy in NON_PREEMPTIVE.items():
            assert bound <= FAMILY.evaluate(instance, policy(instance)).objective * (1 + 1e-9), name


def _average(instance: SharingInstance, completion_sum: float) -> float:
    return (completion_sum - sum(j.arrival for j in instance.jobs)) / len(instance.jobs)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.sampled_from([10, 30]))
def test_class_bound_is_below_the_optimum_and_every_non_preemptive_policy(seed: int, jobs: int, slots: int) -> None:
    """The run LP alone, and the reported class bound: never below the LP nor exact-bb's root bound."""
    inst = generate(jobs, seed, nodes=1, hours=0.05, workload="physical")
    lp = _class_average(inst, slots)
    reported, _ = lp_bound.average_jct_class_bound(inst, slots, None)
    assert reported >= max(lp, _average(inst, root_bound(inst))) * (1 - 1e-12)
    _below_the_class(inst, lp, reported)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 50), st.integers(1, 2), st.integers(1, 40)), min_size=1, max_size=4),
    st.floats(1.0, 3.0),
    st.integers(1, 3),
)
def test_class_bound_holds_on_hand_made_pairs_of_models(
    jobs: list[tuple[float, int, int]], xi: float, models: int
) -> None:
    """Several models with their own ordered-pair xi (the sharing balance rows matter)."""
    inst = paired_models(jobs, xi, models)
    _below_the_class(inst, _class_average(inst, 20))


def test_one_job_alone_is_its_solo_time() -> None:
    assert _class_average(tiny([(7.0, 2, 30)]), 20) == pytest.approx(30.0, rel=1e-6)


def test_a_short_job_behind_a_long_one_lifts_the_bound_above_every_preemptive_schedule() -> None:
    """One GPU, xi = 2 (sharing gains nothing): a 100 s job at 0 and a 10 s job at 10 s. The
    preemptive optimum runs the short job at once (JCTs 110 and 10, average 60: the rate LP's
    value, and the shortest-remaining-time schedule of the ceiling); without preemption the
    best is 65 (the long job waits or shares). The class bound lies between them, so it binds
    the non-preemptive class only."""
    inst = tiny([(0.0, 1, 100), (10.0, 1, 10)], xi=2.0, gpus=1)
    bound = _class_average(inst, 40)
    rate = lp_bound.solve(inst, 40)
    assert (rate.completion_sum - 10.0) / 2 == pytest.approx(60.0, rel=1e-6)
    assert 61.0 < bound <= 65.0 * (1 + 1e-9)
    assert preemptive_ceiling(inst) == pytest.approx(60.0) and preemptive_ceiling(inst) < bound
    assert FAMILY.evaluate(inst, solve(inst, None, time_limit=10).solution).objective == pytest.approx(65.0)


def test_readme_instance_class_bound_is_above_the_rate_lp() -> None:
    """README 6 jobs, seed 4 (measured: rate LP 2,110 s, run LP 2,365 s, exact-bb's root bound
    2,506 s without blocks and 2,654 s with blocks of up to four jobs, optimum 2,833 s): the
    class bound is the larger of the run LP and the root bound, which ``blocks=0`` takes without
    the table; here the run LP with the blocks' rows reaches the root bound and no further."""
    from packgap.analysis.sharing.exact_scaling import instance

    inst = instance(6, 4)
    bound, status = lp_bound.average_jct_class_bound(inst, time_limit=None)
    assert status == "Optimal"
    assert lp_bound.average_jct_bound(inst) + 200 < _class_average(inst, 60, blocks=0) + 100 < bound <= 2833.0
    before, _ = lp_bound.average_jct_class_bound(inst, time_limit=None, blocks=0)
    assert before == pytest.approx(_average(inst, root_bound(inst)), rel=1e-12)
    blocks = root_bound(inst, subset_table(inst, math.inf))
    assert before + 100 < bound == pytest.approx(_average(inst, blocks), rel=1e-12)


def test_class_bound_takes_its_largest_block_as_a_parameter() -> None:
    """README 6 jobs, seed 1 (measured: 13.8 % below the optimum without blocks, 8.9 % with
    blocks of up to four jobs, 1.1 % with five): ``blocks`` reaches the table."""
    from packgap.analysis import registry
    from packgap.analysis.run import solve as run
    from packgap.analysis.sharing.exact_scaling import instance
    from packgap.solvers.outcome import SolveOptions

    inst = instance(6, 1)
    method = registry.method("sharing", "class-bound")
    found: dict[int, float] = {}
    for size in (0, 4, 5):
        bound = run(FAMILY, inst, method, options=SolveOptions(time_limit=600), params={"blocks": size}).class_bound
        assert bound is not None
        found[size] = bound
    optimum = FAMILY.evaluate(inst, solve(inst, None, time_limit=None).solution).objective
    assert found[0] < 0.9 * optimum < found[4] < 0.95 * optimum < found[5] <= optimum * (1 + 1e-9)


def test_block_rows_lift_the_run_lp_above_both_of_its_parts() -> None:
    """README 6 jobs, seed 1 (measured on sums of completions: the run LP 9.6 % below the
    optimum, the root bound with blocks of four 6.2 %, the run LP with the blocks' rows 5.5 %):
    the rows price the blocks inside the LP, so the LP rises above the larger of the two."""
    from packgap.analysis.sharing.exact_scaling import instance

    inst = instance(6, 1)
    plain = lp_bound.solve(inst, None, None, runs=True, blocks=0).lp_sum
    rows = lp_bound.solve(inst, None, None, runs=True).lp_sum
    optimum = solve(inst, None, time_limit=None).sum_completion
    assert plain is not None and rows is not None
    table = root_bound(inst, subset_table(inst, math.inf))
    assert max(plain, table) + 50 < rows <= optimum * (1 + 1e-9)


def test_beyond_the_table_the_lp_takes_the_blocks_of_jobs_that_arrive_together() -> None:
    """13 jobs on 2 GPUs in five bursts 100 s apart (more than the table's 12): each burst's
    jobs must share or queue. The run LP alone (2,638) lies below the cheap bound (2,659) and
    the optimum (2,713); with the windowed blocks' rows it reaches the optimum (measured)."""
    jobs = [
        (100.0 * g + d, gpus, its)
        for g in range(5)
        for d, gpus, its in ((0, 2, 30), (1, 2, 10), (2, 1, 20))[: 3 if g < 3 else 2]
    ]
    inst = tiny(jobs, gpus=2, xi=2.0)
    plain = lp_bound.solve(inst, None, None, runs=True, blocks=0).lp_sum
    rows = lp_bound.solve(inst, None, None, runs=True).lp_sum
    optimum = solve(inst, None, time_limit=60)
    assert len(inst.jobs) > MAX_JOBS and optimum.proven and plain is not None and rows is not None
    assert plain + 50 < rows == pytest.approx(optimum.sum_completion, rel=1e-6)
    assert rows <= optimum.sum_completion * (1 + 1e-9)


def test_block_rows_need_the_run_intervals() -> None:
    """A block's optimum bounds non-preemptive schedules only: the rate LP (every class)
    refuses the rows."""
    from packgap.models.sharing import rate_lp

    inst = tiny([(0.0, 1, 100), (10.0, 1, 10)], xi=2.0, gpus=1)
    with pytest.raises(ValueError, match="need runs=True"):
        rate_lp.build(inst, 120.0, 10, 1_000.0, block_sums=[([0, 1], 130.0)])


def test_a_stopped_exact_bb_certifies_the_class_gap_with_its_open_nodes() -> None:
    """Stopped after 100 nodes, exact-bb's least open-node bound (here its root bound, 2,506 s
    against the rate LP's 2,110 s) is its class bound: below the optimum it proves with more
    nodes, and the certified gap of every non-preemptive policy takes it, never Tiresias'."""
    from packgap.analysis import registry
    from packgap.analysis.run import check_against_optimum
    from packgap.analysis.run import solve as run
    from packgap.solvers.outcome import SolveOptions

    inst = generate(6, 4, nodes=4, hours=0.5, workload="physical")
    options = SolveOptions(time_limit=60)
    bb = registry.method("sharing", "exact-bb")
    proven = run(FAMILY, inst, bb, options=options)
    stopped = run(FAMILY, inst, bb, options=options, params={"max_nodes": 100})
    assert proven.status == Status.OPTIMAL and proven.class_bound is None and proven.objective is not None
    assert stopped.status == Status.TIMEOUT and stopped.class_bound is not None and stopped.bound is not None
    assert stopped.bound + 300 < stopped.class_bound <= proven.objective
    # Stopped before it built the subset bound's table (PROBE_NODES): the root bound without it.
    assert stopped.class_bound == pytest.approx(_average(inst, root_bound(inst)))
    policies = [run(FAMILY, inst, registry.method("sharing", m), options=options) for m in ("sjf-bsbf", "tiresias")]
    checked = {r.method: r for r in check_against_optimum([stopped, *policies])}
    bsbf = checked["sjf-bsbf"]
    assert bsbf.bound_source == "exact-bb class bound (non-preemptive)" and bsbf.objective is not None
    assert bsbf.certified_gap == pytest.approx(1 - stopped.class_bound / bsbf.objective)
    assert checked["tiresias"].bound_source == "exact-bb bound (all classes)"
