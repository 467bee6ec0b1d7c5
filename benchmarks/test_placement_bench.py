"""Placement speed (issue 4): one PAL / PM-First round on 64 to 27,648 GPUs (the paper
reports a median 2.8 s per round for PAL on 256 GPUs, section V-C; issue 21's targets: under
1 ms on 256 GPUs, at most 0.5 s on 27,648, the binning done once per cluster and timed
apart, as the simulator does), PM-score binning up to
Summit's 27,000 GPUs (section III-B), the exact per-round MILP at 64 and 256 GPUs, and a
whole 160-job, 64-GPU Sia-Philly-sized simulation per policy, with its peak memory (issue 21.4:
under 4 GB)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.conftest import PeakRss, short_rounds, sizes
from packgap.analysis.placement.methods import BY_NAME
from packgap.analysis.placement.simulate import simulate_trace
from packgap.analysis.run import solve
from packgap.errors import PackgapError
from packgap.heuristics.placement import POLICIES
from packgap.heuristics.placement.pm_score import bin_class
from packgap.heuristics.placement.policies import policy_bins
from packgap.instances.placement.rounds import generate_round
from packgap.instances.placement.sia import build_trace
from packgap.instances.placement.synergy import synergy_cluster_trace
from packgap.instances.traces import traces_dir
from packgap.placement import FAMILY
from packgap.placement.trace import ClusterTrace
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions

OPTIONS = SolveOptions(time_limit=60, seed=0)


@pytest.mark.parametrize("gpus", sizes([64], [64, 256, 1_024, 4_096, 27_648]))
@pytest.mark.parametrize("method", ["pal", "pm-first", "packed-sticky"])
def test_placement_policy_per_round(benchmark, gpus, method):
    instance = generate_round(gpus, gpus // 3, seed=1)
    spec = POLICIES[method]
    params = {"bins": policy_bins(instance, two_sided=True, artifact=False)} if spec.binned else {}
    with PeakRss() as peak:
        solution = benchmark(spec.heuristic, instance, 0, **params)
    benchmark.extra_info.update(gpus=gpus, jobs=len(instance.jobs), peak_rss_mb=peak.mb)
    assert FAMILY.evaluate(instance, solution).objective > 0


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


@pytest.fixture(scope="module")
def sia_philly() -> ClusterTrace:
    """Sia-Philly workload-1 with its 64-GPU blox table when the traces are here, else a
    generated trace of the same shape (160 jobs on 16 x 4 GPUs)."""
    try:
        folder = traces_dir() / "pal"
    except PackgapError:
        folder = None
    if folder is not None and (folder / "sia_philly_workloads" / "workload-1.csv").is_file():
        return build_trace(
            folder / "sia_philly_workloads" / "workload-1.csv",
            gpu_factors=folder / "blox-sim-inputs" / "gpu_perfvar_64gpu_seed42.csv",
        )
    return synergy_cluster_trace(160, 8.0, seed=2, gpus=64)


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_simulation_sia_philly_size(benchmark, sia_philly, policy):
    """A whole 160-job, 64-GPU simulation per policy (the artifact takes 60-130 s)."""
    with PeakRss() as peak:
        result = benchmark.pedantic(simulate_trace, args=(sia_philly, "fifo", policy), **short_rounds())
    benchmark.extra_info.update(trace=sia_philly.name, mean_jct_s=result.mean_jct, peak_rss_mb=peak.mb)
    assert len(result.jct) == len(sia_philly.jobs)
