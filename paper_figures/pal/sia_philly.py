"""The PAL artifact's Sia-Philly setup, shared by the reproductions of Fig. 11, 12, 13 and the
per-round gaps.

They run the artifact's simulator setup on ``pal/sia_philly_workloads/workload-N.csv`` of the
trace folder: its 64-GPU slowdown table (``blox-sim-inputs/gpu_perfvar_64gpu_seed42.csv``),
model constants and classes, 360 s rounds, L_across = 1.7 and its untracked extra jobs
(:func:`packgap.instances.placement.sia.build_trace`, ``replay="blox"``), FIFO scheduling. PM-First
and PAL run in the paper's reading by default (``readings="paper"``) and in the artifact's
own (``"artifact"``, :mod:`packgap.heuristics.placement.artifact`). Without the trace folder, the
rows say so and every compared value is None.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from packgap.errors import PackgapError
from packgap.heuristics.placement import cluster_policy
from packgap.placement import PlacementInstance, PlacementSolution
from packgap.placement.simulator import Cluster, SimJob, SimResult

TABLE = "blox-sim-inputs/gpu_perfvar_64gpu_seed42.csv"
MISSING = "traces not available"
READINGS = ("paper", "artifact")
L_ACROSS = 1.7


@dataclass(frozen=True)
class SiaPhilly:
    """The artifact's 64-GPU cluster and each workload's jobs (tracked + untracked extras)."""

    cluster: Cluster
    round_length: float
    workloads: Mapping[int, list[SimJob]]


def sia_philly() -> SiaPhilly | str:
    """The Sia-Philly workloads of the trace folder, or why they are not available."""
    from packgap.analysis.placement.simulate import EXTRA_JOBS
    from packgap.instances.placement.sia import build_trace
    from packgap.instances.placement.sim import artifact_extra_jobs
    from packgap.instances.traces import traces_dir

    try:
        folder = traces_dir(None) / "pal"
    except PackgapError as exc:
        return f"{MISSING}: {exc}"
    found = {
        int(m[1]): p
        for p in folder.glob("sia_philly_workloads/*.csv")
        if (m := re.fullmatch(r"workload-(\d+)", p.stem))
    }
    if not found or not (folder / TABLE).is_file():
        return f"{MISSING}: {folder} lacks {TABLE} or sia_philly_workloads/workload-N.csv"
    traces = {w: build_trace(found[w], gpu_factors=folder / TABLE, replay="blox") for w in sorted(found)}
    first = next(iter(traces.values()))
    workloads = {w: [*t.jobs, *artifact_extra_jobs(list(t.jobs), EXTRA_JOBS)] for w, t in traces.items()}
    return SiaPhilly(first.cluster, first.round_length, workloads)


def missing(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The reason a reproduction had no traces, if its rows say so."""
    return next((str(r["missing"]) for r in rows if "missing" in r), None)


Rounds = list[tuple[PlacementInstance, PlacementSolution]]


def simulate_policy(
    sia: SiaPhilly, cluster: Cluster, workload: int, policy: str, readings: str, record: Rounds | None = None
) -> SimResult:
    """One FIFO run of a workload; ``record`` collects every placed round and its placement."""
    from packgap.heuristics.placement.schedulers import fifo
    from packgap.placement.simulator import simulate

    def observe(instance: PlacementInstance, solution: PlacementSolution) -> None:
        if record is not None:
            record.append((instance, solution))

    chosen = cluster_policy(policy, cluster, artifact=readings == "artifact")
    jobs = sia.workloads[workload]
    return simulate(
        cluster,
        jobs,
        fifo,
        chosen.place,
        sticky=chosen.sticky,
        round_length=sia.round_length,
        observe=observe,
        repeats=chosen.repeats,
    )
