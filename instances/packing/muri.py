"""Packing instances built from Muri's job traces (``traces/muri``, see its PROVENANCE.md).

Format (``simulator/trace*.csv``, ``job_type_*.csv``, ``cluster_exp/cluster_trace.csv``):
``job_id,num_gpu,submit_time,iterations,model_name,batch_size,duration,interval,
iteration_time,resource_time_0,resource_time_1,resource_time_2,priority``; Muri's simulator
divides ``submit_time`` (ms) and the per-iteration times (ms) by 1000 to get seconds.

Mapping rule (Muri does not name its resources; PROVENANCE.md infers them from the values):
``resource_time_0`` -> data loading ``S``; ``resource_time_1`` -> GPU time, split into
forward ``F`` and backward ``B`` by the fixed share :data:`packgap.instances.packing.FORWARD_SHARE`
(one third forward); ``resource_time_2`` -> communication ``C``; ``iteration_time`` -> the
profile's measured standalone iteration time (``iteration``, ms; Muri's simulator runs a job
alone at it x 1.015, not at ``S + F + B + C``), on another GPU type scaled by the ratio of the
type's stage sum to the V100's; ``duration`` (ms) -> the job's ``duration`` (s), which Muri's
Muri-S takes as a waiting job's remaining time until it first runs. The trace is homogeneous
(Muri's V100 testbed), so every GPU type gets the V100 times scaled by the generator's
per-type factors (:func:`packgap.instances.packing.stage_profile`); the default cluster is one
type, 64 "V100" (``cluster_spec_n8g8``: 8 nodes x 8 GPUs), where the factors are 1.
Deadlines follow eq. 15 with ``seed``; arrivals are shifted so the first job arrives at 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from packgap.errors import PackgapError
from packgap.gpus import GpuSpec, GpuType
from packgap.instances.csvfile import read_csv
from packgap.instances.packing.generator import eq15_deadline, fastest_iteration_ms, stage_profile, sync_rule
from packgap.instances.packing.trace_records import CellReader
from packgap.packing import Job, PackingInstance
from packgap.packing.instance import Interleaving
from packgap.packing.interleave import StageProfile

COLUMNS = (
    "job_id",
    "num_gpu",
    "submit_time",
    "iterations",
    "model_name",
    "batch_size",
    "duration",
    "iteration_time",
    "resource_time_0",
    "resource_time_1",
    "resource_time_2",
)
DEFAULT_GPU_TYPES: tuple[tuple[str, int], ...] = (("V100", 64),)


def _measured(profile: StageProfile, measured: float, v100_sum: float) -> StageProfile:
    """``profile`` with the trace's standalone iteration time, scaled to its GPU type."""
    own = profile.load + profile.forward + profile.backward + profile.communication
    scale = own / v100_sum if v100_sum > 0 else 1.0
    return replace(profile, measured=round(measured * scale, 3))


def build(
    path: Path,
    seed: int,
    *,
    gpu_types: Sequence[GpuSpec] = DEFAULT_GPU_TYPES,
    max_jobs: int | None = None,
    interleaving: Interleaving = "am",
    interference: float = 2.0,
) -> PackingInstance:
    """The first ``max_jobs`` jobs (all by default) of a Muri trace CSV as a packing instance."""
    rows = read_csv(path, COLUMNS, "a Muri trace CSV")[:max_jobs]
    cells = CellReader(path)
    widest = max(spec[1] for spec in gpu_types)
    parsed = []
    for line, row in rows:
        read = [cells.number(line, c, row[c]) for c in ("resource_time_0", "resource_time_1", "resource_time_2")]
        times = [t for t in read if t is not None]
        gpus = cells.number(line, "num_gpu", row["num_gpu"], integer=True, minimum=1)
        submit = cells.number(line, "submit_time", row["submit_time"])
        iterations = cells.number(line, "iterations", row["iterations"])
        measured = cells.number(line, "iteration_time", row["iteration_time"], minimum=1e-9)
        duration = cells.number(line, "duration", row["duration"])
        if gpus is not None and gpus > widest:
            cells.error(line, "num_gpu", f"{gpus:g} exceeds every GPU type's count")
        if gpus is None or submit is None or iterations is None or len(times) < len(read):
            continue
        if measured is None or duration is None:
            continue
        parsed.append(
            (
                (row["job_id"], int(gpus), submit / 1000.0, int(iterations), row["model_name"], row["batch_size"]),
                times,
                (measured, duration / 1000.0),
            )
        )
    cells.finish()
    if not parsed:
        raise PackgapError(f"{path}: no jobs")
    rng = np.random.default_rng(seed)
    origin = min(p[0][2] for p in parsed)
    jobs = []
    for (jid, gpus, submit, iterations, model, batch), (s, gpu, c), (measured, duration) in parsed:
        v100 = s + gpu + c
        profiles = tuple(_measured(stage_profile(s, gpu, c, spec), measured, v100) for spec in gpu_types)
        sync = sync_rule(model)
        fastest = fastest_iteration_ms(profiles, sync, interleaving, interference) / 1000.0
        arrival = round(submit - origin, 3)
        deadline = eq15_deadline(rng, arrival, max(1, iterations) * fastest)
        jobs.append(
            Job(
                f"muri-{jid}",
                arrival,
                deadline,
                gpus,
                max(1, iterations),
                f"{model}-bs{batch}",
                sync,
                profiles,
                duration,
            )
        )
    return PackingInstance(
        name=f"muri-{path.stem}-s{seed}",
        gpu_types=tuple(GpuType(spec[0], spec[1]) for spec in gpu_types),
        jobs=tuple(jobs),
        interleaving=interleaving,
        interference=interference,
    )
