"""SJF-BSBF Figs. 4 and 5: the JCT distribution and the average queuing per model of the
Table II and Table III runs (another view of ``sjf-bsbf-table2`` and ``sjf-bsbf-table3``).

The same generated workloads (:func:`~packgap.paper_figures.sjf_bsbf.table2.table2_instance`; 240
jobs for Table III) and policies, scored per job (:func:`packgap.sharing.evaluate.job_times`).
The tables' rows keep averages only, so the runs are repeated here: they take about 0.1 s per
policy and workload, so both modes run three seeds (quick = full).

The paper's numbers are read from its text: Fig. 4a "nearly 80 % of jobs have no more than 0.75
hour of JCTs using our SJF-BSBF, while other algorithms only have less than 70 %", Fig. 4b
"for the model BERT, SJF-BSBF reduces the queuing time by nearly 44 % compared to Tiresias" and
SJF-BSBF's queuing "generally lower" than the exclusive policies'; Fig. 5a "nearly 40 % of
jobs of SJF-BSBF achieves lower than 500 seconds of JCTs", Fig. 5b: the sharing policies
"consistently yield lower queuing times" than the exclusive ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from packgap.analysis.kit import Direction, PaperValue, Reproduction, Tick
from packgap.analysis.sharing.simulate import POLLUX_NOTE
from packgap.paper_figures.sjf_bsbf import plots
from packgap.paper_figures.sjf_bsbf.common import HOUR, POLICIES, SHARING_CAUSE, TIRESIAS_QUEUING
from packgap.paper_figures.sjf_bsbf.table2 import table2_instance

SEEDS = (0, 1, 2)
#: The rows' pseudo-policy of each job run alone, without queue or co-runner (:func:`job_rows`).
ALONE = "alone"
EXCLUSIVE = ("fifo", "sjf")
SHARING = ("sjf-ffs", "sjf-bsbf")
#: Fig. 4a's and 5a's reading: (JCT threshold s, SJF-BSBF's share of jobs at or below it, the
#: other policies' ceiling: None where the paper gives none).
THRESHOLDS = {"Fig. 4": (0.75 * HOUR, 0.80, 0.70), "Fig. 5": (500.0, 0.40, None)}


def job_rows(instance: Any, seed: int) -> list[dict[str, Any]]:
    """Every policy of :data:`POLICIES` on ``instance``: its jobs' JCTs (sorted, s) and the
    average queuing (s) of each model's jobs; and, as policy :data:`ALONE`, each job's solo run
    time at its requested batch: its JCT in an empty cluster, a per-job lower bound (with the
    number of jobs of each model)."""
    from packgap.analysis.sharing.simulate import validated_policy
    from packgap.sharing import Perf
    from packgap.sharing.evaluate import job_times

    models = {j.id: j.model for j in instance.jobs}
    perf = Perf(instance)
    alone = sorted(perf.solo_time(j.id, perf.solo_batch(j)) for j in instance.jobs)
    counts = {m: sum(j.model == m for j in instance.jobs) for m in sorted(set(models.values()))}
    rows: list[dict[str, Any]] = [{"seed": seed, "policy": ALONE, "jct_s": alone, "queuing_s": {}, "jobs": counts}]
    for policy in POLICIES:
        jct, queue = job_times(instance, validated_policy(policy, instance))
        by_model: dict[str, list[float]] = {}
        for job, q in queue.items():
            by_model.setdefault(models[job], []).append(q)
        rows.append(
            {
                "seed": seed,
                "policy": policy,
                "jct_s": sorted(jct.values()),
                "queuing_s": {m: sum(v) / len(v) for m, v in sorted(by_model.items())},
            }
        )
    return rows


def _compute(instance: Callable[[int], Any], quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Per-job rows of ``instance(seed)`` over :data:`SEEDS` (bound with ``partial``:
    module-level, so ``figures --workers`` can hand it to another process)."""
    tick("per-job runs", 0, len(SEEDS))
    rows = []
    for seed in SEEDS:
        rows += job_rows(instance(seed), seed)
        tick(f"per-job runs, seed {seed}", 1, None)
    return rows


def _table3_instance(seed: int) -> Any:
    from packgap.instances.sharing.generator import generate

    return generate(240, seed, workload="v1")


def share_at_most(rows: Sequence[Mapping[str, Any]], policy: str, threshold: float) -> float:
    """The share of ``policy``'s jobs (all seeds pooled) whose JCT is at most ``threshold`` s."""
    jct = [t for r in rows if r["policy"] == policy for t in r["jct_s"]]
    return sum(t <= threshold for t in jct) / len(jct)


def model_queuing(rows: Sequence[Mapping[str, Any]], policy: str) -> dict[str, float]:
    """``policy``'s average queuing (s) per model, the mean over seeds."""
    mine = [r["queuing_s"] for r in rows if r["policy"] == policy]
    models = sorted({m for q in mine for m in q})
    return {m: sum(q[m] for q in mine if m in q) / sum(m in q for q in mine) for m in models}


def mean_queue(rows: Sequence[Mapping[str, Any]], policy: str) -> float:
    """``policy``'s average queuing (s), the mean over models of :func:`model_queuing`."""
    queue = model_queuing(rows, policy)
    return sum(queue.values()) / len(queue)


def _mean_jct(rows: Sequence[Mapping[str, Any]], policy: str) -> float:
    jct = [t for r in rows if r["policy"] == policy for t in r["jct_s"]]
    return sum(jct) / len(jct)


def _jct_cause(item: str, rows: Sequence[Mapping[str, Any]], policy: str, threshold: float) -> str:
    """Why ``policy``'s share of short JCTs runs against the paper, from the runs."""
    alone = share_at_most(rows, ALONE, threshold)
    if policy == "sjf-bsbf" and alone < THRESHOLDS[item][1]:
        return (
            f"measured: only {alone:.0%} of the generated jobs run within it even "
            "alone in an empty cluster (solo time at the requested batch): the generated durations, not the schedule"
        )
    if policy == "sjf-bsbf":
        return (
            f"measured: {alone:.0%} of the jobs run within it alone in an empty cluster; under SJF-BSBF they queue "
            f"{mean_queue(rows, policy) / HOUR:.2f} h on average (mean over models) and run shared; " + SHARING_CAUSE
        )
    if policy == "tiresias":
        mean = {p: mean_queue(rows, p) / HOUR for p in (policy, "sjf-bsbf")}
        return (
            f"measured: Tiresias' 2D-LAS preempts running jobs, so arrivals start at once (average queuing "
            f"{mean['tiresias']:.2f} h vs SJF-BSBF's {mean['sjf-bsbf']:.2f} h) and short jobs finish sooner; its mean "
            f"JCT is {_mean_jct(rows, policy) / HOUR:.2f} h vs SJF-BSBF's {_mean_jct(rows, 'sjf-bsbf') / HOUR:.2f} h. "
            "SJF-BSBF is non-preemptive"
        )
    return (
        f"measured: mean JCT {_mean_jct(rows, policy) / HOUR:.2f} h vs SJF-BSBF's "
        f"{_mean_jct(rows, 'sjf-bsbf') / HOUR:.2f} h on the same runs; {SHARING_CAUSE}"
    )


def _share_values(item: str, rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    threshold, ours_paper, others_paper = THRESHOLDS[item]
    within = f"{threshold / HOUR:g} h" if threshold >= HOUR / 2 else f"{threshold:g} s"
    reference = f"sjf-bsbf share of jobs with JCT <= {within}"
    out = [PaperValue(item, f"pollux share of jobs with JCT <= {within}", None, None, "", POLLUX_NOTE)]
    for p in POLICIES:
        ours, cause = share_at_most(rows, p, threshold), _jct_cause(item, rows, p, threshold)
        if p == "sjf-bsbf":
            # Fig. 5a's 40 % is a point of the paper's own JCT scale (its trace), not an order.
            direction = Direction(">", others_paper) if others_paper is not None else None
            alone = share_at_most(rows, ALONE, threshold)
            note = f"{alone:.0%} of the generated jobs run within it alone; the paper's point is on its trace's scale"
            note = "" if others_paper is not None else note
            out.append(PaperValue(item, reference, ours_paper, ours, "", note, direction, cause=cause))
        else:
            quantity = f"{p} share of jobs with JCT <= {within}"
            out.append(PaperValue(item, quantity, others_paper, ours, "", "", Direction("<", reference), cause=cause))
    return out


def _queue_cause(rows: Sequence[Mapping[str, Any]], policy: str, models: Sequence[str]) -> str:
    queue = {p: model_queuing(rows, p) for p in (policy, "sjf-bsbf", "sjf-ffs")}
    worse = ", ".join(
        f"{m} {queue['sjf-bsbf'][m] / HOUR:.2f} vs {queue[policy][m] / HOUR:.2f} h"
        for m in models
        if queue["sjf-bsbf"][m] >= queue[policy][m]
    )
    return f"measured (SJF-BSBF vs {policy} queuing): {worse}; SJF-BSBF declines pairs Theorem 1 finds slower"


def compare_fig4(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = _share_values("Fig. 4", rows)
    queue = {p: model_queuing(rows, p) for p in POLICIES}
    models = sorted(queue["sjf-bsbf"])
    if "bert" in models:
        tiresias, bsbf = queue["tiresias"]["bert"], queue["sjf-bsbf"]["bert"]
        reduction = 1 - bsbf / tiresias if tiresias > 0 else float("-inf") if bsbf > 0 else 0.0
        quantity = "BERT queuing: SJF-BSBF's reduction vs Tiresias"
        out.append(PaperValue("Fig. 4", quantity, 0.44, reduction, "", "", Direction(">", 0.0), cause=TIRESIAS_QUEUING))
    for p in EXCLUSIVE:
        fewer = sum(queue["sjf-bsbf"][m] < queue[p][m] for m in models) / len(models)
        quantity = f"share of models where SJF-BSBF queues less than {p}"
        note = f"{len(models)} models; paper: generally lower"
        cause = _queue_cause(rows, p, models)
        out.append(PaperValue("Fig. 4", quantity, None, fewer, "", note, Direction(">", 0.5), cause=cause))
    return out


def compare_fig5(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = _share_values("Fig. 5", rows)
    queue = {p: model_queuing(rows, p) for p in POLICIES}
    models = sorted(queue["sjf-bsbf"])
    below = [m for m in models if max(queue[s][m] for s in SHARING) < min(queue[e][m] for e in EXCLUSIVE)]
    quantity = "share of models where both sharing policies queue less than FIFO and SJF"
    jobs = {m: sum(r["jobs"].get(m, 0) for r in rows if r["policy"] == ALONE) for m in models}
    cause = "measured: not below on " + ", ".join(
        f"{m} ({jobs[m]} job(s) in {len(SEEDS)} seeds; SJF-FFS {queue['sjf-ffs'][m]:.0f} s, SJF-BSBF "
        f"{queue['sjf-bsbf'][m]:.0f} s, FIFO {queue['fifo'][m]:.0f} s, SJF {queue['sjf'][m]:.0f} s)"
        for m in models
        if m not in below
    )
    cause += ": SJF-BSBF orders its queue shortest first, as SJF does, which serves long jobs last"
    note = f"{len(models)} models; paper: consistently lower"
    share = len(below) / len(models)
    out.append(PaperValue("Fig. 5", quantity, 1.0, share, "", note, Direction(">", 0.99), cause=cause))
    reference = "sjf-bsbf mean over models of the average queuing"
    out.append(PaperValue("Fig. 5", reference, None, mean_queue(rows, "sjf-bsbf") / HOUR, "h"))
    quantity, ours = "tiresias mean over models of the average queuing", mean_queue(rows, "tiresias") / HOUR
    out.append(PaperValue("Fig. 5", quantity, None, ours, "h", "", Direction(">", reference), cause=TIRESIAS_QUEUING))
    return out


def _size(jobs: int) -> Callable[[bool], dict[str, Any]]:
    return lambda quick: {"jobs": jobs, "seeds": len(SEEDS)}


FIG4 = Reproduction(
    "sjf-bsbf-fig4",
    "SJF-BSBF",
    "Fig. 4",
    "JCT distribution and average queuing per model, testbed-like workload (Table II's runs)",
    partial(_compute, table2_instance),
    plots.draw_per_job("Fig. 4", "testbed-like workload, 30 jobs, 16 GPUs", THRESHOLDS["Fig. 4"][:2], "h"),
    compare_fig4,
    _size(30),
)
FIG5 = Reproduction(
    "sjf-bsbf-fig5",
    "SJF-BSBF",
    "Fig. 5",
    "JCT distribution and average queuing per model, 240 jobs (Table III's runs)",
    partial(_compute, _table3_instance),
    plots.draw_per_job("Fig. 5", "simulation workload, 240 jobs, 64 GPUs", THRESHOLDS["Fig. 5"][:2], "s"),
    compare_fig5,
    _size(240),
)
