"""Cluster traces from PAL's Sia-Philly workloads (``traces/pal/sia_philly_workloads``).

Each workload is 160 jobs for a 64-GPU cluster of 16 nodes x 4 GPUs. Per-GPU factors come
from a blox GPU table (``--gpu-factors``) when given, else are sampled without repetition
from the variability profiles with ``seed`` (PAL section IV-C).

Two readings of the same rows:

* ``replay="paper"`` (default): 300 s rounds, the paper's Table II model -> class map
  (resnet50, vgg19, DCGAN -> A; BERT, GPT2 -> B; PointNet -> C).
* ``replay="blox"``: the artifact simulator (blox-sim-inputs PROVENANCE.md): 360 s rounds,
  its own model -> class map (which differs from Table II).

Both use the artifact's per-model iteration times (the paper gives none) and its
L_across = 1.7; ``duration`` is read as iterations, as the artifact does.
"""

from __future__ import annotations

from pathlib import Path

from packgap.errors import PackgapError
from packgap.instances.placement.rounds import PAPER_MODEL_CLASSES
from packgap.instances.placement.sim import (
    ARTIFACT_L_ACROSS,
    ARTIFACT_MODEL_CLASSES,
    ARTIFACT_ROUND,
    cluster_from_table,
    sim_jobs,
)
from packgap.instances.placement.traces import GpuTable, read_gpu_table, read_workload
from packgap.instances.placement.variability import read_profiles, sample_factors
from packgap.instances.traces import traces_dir
from packgap.placement.trace import REPLAYS, ClusterTrace

NODES, GPUS_PER_NODE = 16, 4
PAPER_ROUND = 300.0


def build_trace(
    workload: Path,
    *,
    gpu_factors: Path | None = None,
    replay: str = "paper",
    seed: int = 0,
    traces: str | Path | None = None,
) -> ClusterTrace:
    if replay not in REPLAYS:
        raise PackgapError(f"--replay must be one of {', '.join(REPLAYS)}, got {replay!r}")
    if gpu_factors is not None:
        table = read_gpu_table(gpu_factors)
    else:
        profiles = read_profiles(traces_dir(traces) / "pal" / "variability")
        table = GpuTable(NODES, GPUS_PER_NODE, sample_factors(profiles, NODES * GPUS_PER_NODE, seed))
    cluster = cluster_from_table(table, ARTIFACT_L_ACROSS)
    classes = ARTIFACT_MODEL_CLASSES if replay == "blox" else PAPER_MODEL_CLASSES
    missing = sorted(set(classes.values()) - set(cluster.classes))
    if missing:
        raise PackgapError(f"GPU factors lack class(es) {', '.join(missing)} used by the {replay} model map")
    jobs = sim_jobs(read_workload(workload), model_classes=classes)
    source = gpu_factors.stem if gpu_factors is not None else f"profiles-s{seed}"
    return ClusterTrace(
        name=f"pal-sia-{workload.stem}-{source}-{replay}",
        cluster=cluster,
        jobs=tuple(jobs),
        round_length=ARTIFACT_ROUND if replay == "blox" else PAPER_ROUND,
        replay=replay,
    )
