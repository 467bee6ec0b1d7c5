"""Replay of the PAL artifact simulator on a Sia-Philly workload (blox-sim-inputs
PROVENANCE.md): its 64-GPU slowdown table, 360 s rounds, FIFO, L_across = 1.7, its model
constants, its untracked extra jobs and its own readings of PM-First and PAL
(:mod:`heuristics.placement.artifact`).

Not reproduced: the artifact's ``wait_time`` quirk for submit times on an odd multiple of
the round (our wait is JCT minus time run), and its CPU-dependent order among nodes with
equally many eligible GPUs in PAL's within-node step (ties go to the lower node id, the
artifact's order on CPUs without AVX-512; the note reports one tracked finish time moving
by one round on its AVX-512 machine).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from heuristics.placement.artifact import artifact_policy
from heuristics.placement.schedulers import fifo
from instances.pal_sim import ARTIFACT_ROUND, artifact_extra_jobs, cluster_from_table, sim_jobs
from instances.pal_traces import read_gpu_table, read_workload
from packgap.placement import PlacementInstance
from packgap.placement.simulator import Observer, SimResult, simulate

#: Untracked extra jobs generated: at 2 jobs/hour they keep arriving for ~2,000 hours.
EXTRA_JOBS = 4000


def replay(
    traces_dir: Path,
    workload: int,
    policy: str,
    *,
    extras: int = EXTRA_JOBS,
    observe: Observer | None = None,
) -> SimResult:
    """Run policy ``policy`` (pm-first, pal, packed-sticky, packed-non-sticky, ...) on
    ``sia_philly_workloads/workload-<workload>.csv`` as the artifact does."""
    table = read_gpu_table(traces_dir / "blox-sim-inputs" / "gpu_perfvar_64gpu_seed42.csv")
    cluster = cluster_from_table(table)
    jobs = sim_jobs(read_workload(traces_dir / "sia_philly_workloads" / f"workload-{workload}.csv"))
    jobs += artifact_extra_jobs(jobs, extras)
    chosen = artifact_policy(policy, cluster)
    return simulate(
        cluster, jobs, fifo, chosen.place, sticky=chosen.sticky, round_length=ARTIFACT_ROUND, observe=observe
    )


def replay_rounds(
    traces_dir: Path, workload: int, policy: str = "packed-non-sticky", every: int = 1
) -> list[PlacementInstance]:
    """Trace-derived round instances: every ``every``-th round that ``policy`` placed a job
    in, during the replay of a Sia-Philly workload (64 GPUs = 16 x 4)."""
    rounds: list[PlacementInstance] = []
    replay(traces_dir, workload, policy, observe=lambda inst, _: rounds.append(inst))
    return [replace(r, name=f"sia-philly-w{workload}-{r.name}") for r in rounds[::every]]
