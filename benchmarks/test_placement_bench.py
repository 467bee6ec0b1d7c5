"""Placement speed (issue 4): one PAL / PM-First round on 64 to 27,648 GPUs (the paper
reports a median 2.8 s per round for PAL on 256 GPUs, section V-C), PM-score binning up to
Summit's 27,000 GPUs (section III-B), the exact per-round MILP at 64 and 256 GPUs, and a
whole 160-job, 64-GPU Sia-Philly-sized simulation per policy."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.methods.placement import BY_NAME
from analysis.run import solve
from benchmarks.conftest import sizes
from heuristics.placement import POLICIES, cluster_policy
from heuristics.placement.pm_score import bin_class
from heuristics.placement.schedulers import fifo
from instances.pal_rounds import generate_round
from packgap.placement import FAMILY
from packgap.placement.simulator import Cluster, SimJob, simulate
from packgap.result import Status
from solvers.outcome import SolveOptions

OPTIONS = SolveOptions(time_limit=60, seed=0)


@pytest.mark.parametrize("gpus", sizes([64], [64, 256, 1_024, 27_648]))
@pytest.mark.parametrize("method", ["pal", "pm-first", "packed-sticky"])
def test_placement_policy_per_round(benchmark, gpus, method):
    instance = generate_round(gpus, gpus // 3, seed=1)
    result = benchmark(solve, FAMILY, instance, BY_NAME[method], options=OPTIONS)
    assert result.objective is not None


@pytest.mark.parametrize("gpus", sizes([256], [256, 2_000, 27_000]))
def test_pm_score_binning(benchmark, gpus):
    scores = np.random.default_rng(0).lognormal(0.0, 0.1, gpus)
    bins = benchmark(bin_class, "A", scores)
    assert 2 <= bins.k <= 11


@pytest.mark.parametrize("gpus", sizes([16], [64, 256]))
def test_exact_milp_per_round(benchmark, gpus):
    instance = generate_round(gpus, gpus // 3, seed=1)
    result = benchmark.pedantic(
        solve, args=(FAMILY, instance, BY_NAME["exact-milp"]), kwargs={"options": OPTIONS}, rounds=1
    )
    benchmark.extra_info.update(status=str(result.status), gap=result.gap)
    assert result.objective is not None or result.status == Status.TIMEOUT


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_simulation_sia_philly_size(benchmark, policy):
    """160 jobs on 16 x 4 GPUs, demands and arrivals shaped like Sia-Philly."""
    inst = generate_round(64, 160, seed=2)
    rng = np.random.default_rng(2)
    jobs = [
        SimJob(j.id, min(j.gpus, 48), 180.0 * i, float(rng.integers(500, 20_000)), j.model, j.job_class, 0.2)
        for i, j in enumerate(generate_round(640, 160, seed=2).jobs)
    ]
    cluster = Cluster(inst.nodes, inst.gpus_per_node, inst.classes, inst.pm_scores, 1.7)
    chosen = cluster_policy(policy, cluster)
    result = benchmark.pedantic(
        simulate,
        args=(cluster, jobs, fifo, chosen.place),
        kwargs={"sticky": chosen.sticky, "round_length": 360.0},
        rounds=1,
    )
    assert len(result.jct) == len(jobs)
