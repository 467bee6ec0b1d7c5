"""Replay of the PAL artifact simulator on a Sia-Philly workload (blox-sim-inputs
PROVENANCE.md): its 64-GPU slowdown table, 360 s rounds, FIFO, L_across = 1.7, its model
constants, its untracked extra jobs and its own readings of PM-First and PAL
(:mod:`packgap.heuristics.placement.artifact`).

Not reproduced: the artifact's ``wait_time`` quirk for submit times on an odd multiple of
the round (our wait is JCT minus time run), and its CPU-dependent order among nodes with
equally many eligible GPUs in PAL's within-node step (ties go to the lower node id, the
artifact's order on CPUs without AVX-512; the note reports one tracked finish time moving
by one round on its AVX-512 machine).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from packgap.analysis.placement.simulate import EXTRA_JOBS, simulate_trace
from packgap.instances.placement.sia import build_trace
from packgap.placement import PlacementInstance
from packgap.placement.simulator import Observer, SimResult


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
    trace = build_trace(
        traces_dir / "sia_philly_workloads" / f"workload-{workload}.csv",
        gpu_factors=traces_dir / "blox-sim-inputs" / "gpu_perfvar_64gpu_seed42.csv",
        replay="blox",
    )
    return simulate_trace(trace, "fifo", policy, extras=extras, observe=observe)


def replay_rounds(
    traces_dir: Path, workload: int, policy: str = "packed-non-sticky", every: int = 1
) -> list[PlacementInstance]:
    """Trace-derived round instances: every ``every``-th round that ``policy`` placed a job
    in, during the replay of a Sia-Philly workload (64 GPUs = 16 x 4)."""
    rounds: list[PlacementInstance] = []
    replay(traces_dir, workload, policy, observe=lambda inst, _: rounds.append(inst))
    return [replace(r, name=f"sia-philly-w{workload}-{r.name}") for r in rounds[::every]]
