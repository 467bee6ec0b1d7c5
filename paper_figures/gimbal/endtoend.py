"""GIMBAL's end-to-end runs (section 7.2) on the Philly and Alibaba workloads: one set of runs,
several figures.

Fig. 8 reads each base scheduler's headline metric of these runs; Fig. 9 is Lucid's runs seen
as queue times and a JCT distribution, Fig. 10 Gandiva's as jobs completed per job class (by
their deadline: the paper's "completes 110 out of 150 jobs" is Fig. 8's deadlines met) and
cluster throughput, Fig. 11 Gavel's as cluster throughput. Each reproduction stores its own
rows, but a run is computed once per process (:func:`outcome` is cached), so ``packgap figures
--all`` pays for the runs once.

Workloads (section 7.1): ``philly`` is ``philly/philly.csv``
(:func:`~packgap.instances.calibration.workload.from_philly`); ``alibaba`` is the openb pod
list ``alibaba-gpu-v2023-openb/openb_pod_list_default.csv``
(:func:`~packgap.instances.calibration.workload.from_openb`): a pod's creation time is the
job's submission, deletion minus scheduling its duration, GPU pods of at least 60 s from
11.5 M s on, durations capped at 2 h, models and GPU counts assigned with Table 2 (b)'s mix,
arrival gaps divided by 6 (:data:`~packgap.instances.calibration.workload.OPENB_COMPRESS`: the
openb window is too sparse to queue anything). Without the trace file a run uses the seeded
generator with the same mix and says so in every row (``workload``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from packgap.analysis.kit import Tick
from packgap.errors import PackgapError

if TYPE_CHECKING:
    from packgap.calibration.workload import Workload
    from packgap.heuristics.calibration.online import Outcome

#: The trace files of section 7.1's two workloads, under the trace folder.
TRACE_FILES = {"philly": "philly/philly.csv", "alibaba": "alibaba-gpu-v2023-openb/openb_pod_list_default.csv"}
JOB_CLASSES = ("small", "medium", "large")
#: Width of a cluster-throughput bin (s).
BIN_S = 1800.0


def _trace_file(trace: str) -> str | None:
    from packgap.instances.traces import traces_dir

    try:
        path = traces_dir(None) / TRACE_FILES[trace]
    except PackgapError:
        return None
    return str(path) if path.is_file() else None


@cache
def _workload(trace: str, path: str | None, jobs: int, nodes: int) -> tuple[Workload, str]:
    from pathlib import Path

    from packgap.instances.calibration.workload import (
        ALIBABA,
        OPENB_COMPRESS,
        PHILLY,
        from_openb,
        from_philly,
        generate,
    )

    if path is None:
        mix = PHILLY if trace == "philly" else ALIBABA
        missing = "philly.csv" if trace == "philly" else "openb pod list"
        return generate(jobs, seed=0, nodes=nodes, mix=mix), f"generated (no {missing})"
    if trace == "philly":
        return from_philly(Path(path), jobs=jobs, nodes=nodes), "philly"
    return from_openb(Path(path), jobs=jobs, compress=OPENB_COMPRESS, nodes=nodes), "alibaba (openb)"


def workload(trace: str, jobs: int, nodes: int) -> tuple[Workload, str]:
    """Section 7.1's ``trace`` workload of ``jobs`` jobs on ``nodes`` nodes, and what it was built from."""
    return _workload(trace, _trace_file(trace), jobs, nodes)


@cache
def _outcome(trace: str, path: str | None, jobs: int, nodes: int, base: str, variant: str) -> Outcome:
    from packgap.heuristics.calibration.online import run_workload

    return run_workload(_workload(trace, path, jobs, nodes)[0], base, variant)


def outcome(trace: str, jobs: int, nodes: int, base: str, variant: str) -> Outcome:
    """One end-to-end run of ``base`` with ``variant`` (computed once per process)."""
    return _outcome(trace, _trace_file(trace), jobs, nodes, base, variant)


def runs(
    trace: str, jobs: int, nodes: int, bases: Sequence[str], variants: Sequence[str], tick: Tick, label: str
) -> list[dict[str, Any]]:
    """Every (base, variant) run's metrics, one row each."""
    work, kind = workload(trace, jobs, nodes)
    rows = []
    for base in bases:
        for variant in variants:
            metrics = outcome(trace, jobs, nodes, base, variant).metrics
            rows.append({"trace": trace, "base": base, "variant": variant, "workload": kind, "gpus": work.gpu_count})
            rows[-1].update(metrics)
            tick(label, 1, None)
    return rows


def job_class(model: str) -> str:
    """Section 7.1's class of a model: small, medium or large."""
    from packgap.instances.calibration.workload import CLASSES

    return next(c for c, models in CLASSES.items() if model in models)


def view(trace: str, jobs: int, nodes: int, base: str, variant: str) -> dict[str, Any]:
    """One run as Figs. 9-11 see it: every job's JCT (sorted), the mean JCT of the jobs longer and
    shorter than the median solo duration, deadlines met per job class, cluster throughput per bin."""
    from packgap.heuristics.calibration.online import solo_step_s

    work, kind = workload(trace, jobs, nodes)
    run = outcome(trace, jobs, nodes, base, variant)
    jct = {j.id: run.run.records[j.id].completion for j in work.jobs}
    by_solo = sorted(work.jobs, key=lambda j: (j.steps * solo_step_s(work, j), j.id))
    half = len(by_solo) // 2
    met = run.met()
    row: dict[str, Any] = {"trace": trace, "base": base, "variant": variant, "workload": kind, "jobs": len(work.jobs)}
    row["mean_queuing_s"] = run.metrics["mean_queuing_s"]
    row["mean_jct_s"] = run.metrics["mean_jct_s"]
    row["short_jct_s"] = mean([jct[j.id] for j in by_solo[:half]])
    row["long_jct_s"] = mean([jct[j.id] for j in by_solo[half:]])
    row["jct_s"] = sorted(jct.values())
    for cls in JOB_CLASSES:
        mine = [j for j in work.jobs if job_class(j.model) == cls]
        row[f"{cls}_jobs"] = len(mine)
        row[f"{cls}_met"] = sum(met[j.id] for j in mine)
    row["bin_s"] = BIN_S
    row["throughput"] = run.throughput(BIN_S)
    return row


def mean(values: Sequence[float]) -> float:
    """The mean of ``values`` (0 for none)."""
    return sum(values) / len(values) if values else 0.0
