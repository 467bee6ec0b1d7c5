"""GIMBAL's Table 2, the workloads of section 7.1: jobs and mean GPUs per job of each model class
(small, medium, large) in the 150-job Philly and 300-job Alibaba workloads, as built
(:mod:`~packgap.instances.calibration.workload`): the paper assigns models and GPU counts to trace
jobs at random, so its statistics are of that assignment, and so are ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis.kit import PaperValue, Reproduction, Tick, equal
from packgap.paper_figures.gimbal import endtoend, plots_endtoend
from packgap.paper_figures.gimbal.endtoend import JOB_CLASSES
from packgap.paper_figures.gimbal.plots_endtoend import PAPER_TABLE2

TRACES = ("philly", "alibaba")
TABLE2_JOBS = {"philly": 150, "alibaba": 300}
#: Tolerance on a class's mean GPUs: the mean of n draws of 1/2/4 (2/4/8) GPUs spreads by
#: about 1.2 (2) / sqrt(n): 0.18 for Philly's 43 small jobs, 0.44 for its 21 large ones.
GPU_TOLERANCE = 0.2


def table2(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    rows = []
    for trace in TRACES:
        work, kind = endtoend.workload(trace, TABLE2_JOBS[trace], 16)
        for cls in JOB_CLASSES:
            sizes = [j.world_size for j in work.jobs if endtoend.job_class(j.model) == cls]
            mean = sum(sizes) / len(sizes) if sizes else 0.0
            rows.append({"trace": trace, "workload": kind, "class": cls, "jobs": len(sizes), "mean_gpus": mean})
    return rows


def compare_table2(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for r in rows:
        jobs, gpus = PAPER_TABLE2[r["trace"]][r["class"]]
        name = f"{r['trace'].capitalize()}, {r['class']}"
        by_rank = "by construction: the jobs' classes follow their duration rank in Table 2's proportions"
        out.append(PaperValue("Table 2", f"{name}: jobs", jobs, r["jobs"], "", by_rank, equal()))
        drawn = f"GPU counts drawn per class around Table 2's means (n = {r['jobs']} draws, seed 0)"
        out.append(
            PaperValue("Table 2", f"{name}: mean GPUs per job", gpus, r["mean_gpus"], "", drawn, equal(GPU_TOLERANCE))
        )
    return out


REPRODUCTION = Reproduction(
    "gimbal-table2",
    "GIMBAL",
    "Table 2",
    "Jobs and GPUs per model class, Philly and Alibaba workloads",
    table2,
    plots_endtoend.draw_table2,
    compare_table2,
    lambda quick: {"philly jobs": TABLE2_JOBS["philly"], "alibaba jobs": TABLE2_JOBS["alibaba"]},
)
