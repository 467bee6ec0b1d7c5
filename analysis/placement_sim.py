"""One entry point for round-based simulations: scheduler and placement policy by name
(run parameters, not instance fields), and the metrics of PAL's evaluation as one row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from heuristics.placement import cluster_policy
from heuristics.placement.schedulers import SCHEDULERS
from packgap.errors import UnknownNameError
from packgap.placement.simulator import Cluster, SimJob, SimResult, simulate


def run(
    cluster: Cluster,
    jobs: Sequence[SimJob],
    scheduler: str = "fifo",
    policy: str = "pal",
    *,
    round_length: float = 300.0,
    seed: int = 0,
    **policy_params: Any,
) -> SimResult:
    """Simulate ``jobs`` with scheduler ``fifo`` / ``las`` / ``srtf`` and a placement policy
    of ``heuristics.placement.POLICIES`` (PM-First / PAL options in ``policy_params``)."""
    if scheduler not in SCHEDULERS:
        raise UnknownNameError("scheduler", scheduler, list(SCHEDULERS))
    chosen = cluster_policy(policy, cluster, **policy_params)
    return simulate(cluster, jobs, SCHEDULERS[scheduler], chosen.place, sticky=chosen.sticky,
                    round_length=round_length, seed=seed)


def metrics(result: SimResult) -> dict[str, float]:
    """Mean and p99 JCT, makespan, mean wait (s) and mean GPU utilisation over rounds."""
    util = result.utilisation
    return {
        "mean_jct_s": result.mean_jct,
        "p99_jct_s": result.p99_jct,
        "makespan_s": result.makespan,
        "mean_wait_s": result.mean_wait,
        "mean_utilisation": sum(util) / len(util) if util else 0.0,
        "jobs": float(len(result.jct)),
    }
