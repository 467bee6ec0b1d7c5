"""Online runs of the packing pipelines (CUCKOO section 4.2, Table 9, Fig. 9).

:func:`pipeline_policy` turns a registered ``packer+planner`` pipeline
(:mod:`packgap.heuristics.packing.pipeline`) into a re-planning policy for
:func:`packgap.packing.online.simulate`. At each round the policy

1. takes the waiting jobs and the *free* GPUs only: heterogeneity-aware packing assumes the
   GPU types "available in the cluster at the moment" (section 3.3.2), and the
   anti-overpacking rule counts the GPUs that would idle (section 3.3.4);
2. moves the clock to ``now = 0``: every waiting job is ready at 0 and its deadline becomes
   ``deadline - now`` (eq. 11's ``D_j - now``; MCHP's C2 of eq. 14 compares a completion
   counted from now). Overdue jobs get deadline 0: MCHP's matching is unchanged by that
   (a constant per group row), EDF then serves them in queue order;
3. runs the pipeline offline on that snapshot and starts the groups it would start at once
   (first on their GPUs); all other jobs go back to the queue and are re-packed at the next
   round ("repopulated into the queue for future scheduling attempts", section 3.1).

Jobs demanding more GPUs than any type has free wait for a later round. Metrics come from
the family evaluator on the run's solution (validated first); the queue statistics from the
run's step series.

``muri-s`` and ``muri-l`` are Muri's own online schedulers as released
(:mod:`packgap.heuristics.packing.muri_online`): event-driven, regrouping and preempting at
every event, so a run is no packing solution (a job runs in many groups); :func:`muri_report`
checks each job's outcome (once, after its arrival) and scores the completions with eq. 8-10
as the family's evaluator does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from itertools import pairwise
from typing import Any

import numpy as np

from packgap.analysis import plugins
from packgap.analysis.packing.methods import BY_NAME, PIPELINE_NAMES
from packgap.analysis.packing.online_bound import Reference
from packgap.analysis.packing.runs import pipeline_options
from packgap.errors import PackgapError, UnknownNameError, ValidationError
from packgap.gpus import GpuType
from packgap.heuristics.packing.muri_online import MuriOnlineOptions, MuriRun, simulate_muri
from packgap.heuristics.packing.pipeline import (
    PACKERS,
    PLANNERS,
    Packer,
    PipelineOptions,
    Planner,
    homogeneous_view,
    run_pipeline,
)
from packgap.packing import FAMILY, PackingInstance
from packgap.packing.evaluate import TOL
from packgap.packing.online import DEFAULT_INTERVAL_S, OnlineRun, Replan, Series, Start, View, simulate
from packgap.packing.online import to_dict as run_to_dict


@dataclass(frozen=True)
class OnlineReport:
    pipeline: str
    params: dict[str, Any]
    run: OnlineRun
    metrics: dict[str, float]


def snapshot(view: View) -> tuple[PackingInstance, list[tuple[int, ...]]] | None:
    """The waiting jobs on the free GPUs, clock at 0 (module docstring, steps 1-2); the free
    GPU indices of each kept type; None when no waiting job fits the free GPUs."""
    kept = [k for k, free in enumerate(view.free) if free]
    widest = max((len(view.free[k]) for k in kept), default=0)
    jobs = tuple(
        replace(j, arrival=0.0, deadline=max(0.0, j.deadline - view.now), profiles=tuple(j.profiles[k] for k in kept))
        for j in view.queue.jobs
        if j.gpus <= widest
    )
    if not jobs:
        return None
    types = tuple(GpuType(view.queue.gpu_types[k].name, len(view.free[k])) for k in kept)
    instance = replace(view.queue, name=f"{view.queue.name}@{view.now:.3f}", gpu_types=types, jobs=jobs)
    return instance, [view.free[k] for k in kept]


def pipeline_policy(packer: Packer, planner: Planner, options: PipelineOptions) -> Replan:
    """``packer+planner`` as an online policy (module docstring, step 3)."""

    blind_as = options.homogeneous_as
    sees = replace(options, homogeneous_as="")

    def replan(view: View) -> list[Start]:
        if blind_as:
            # Blind to heterogeneity before the snapshot, which keeps only GPU types with free
            # GPUs: the type everything is seen as may be fully busy this round.
            view = replace(view, queue=homogeneous_view(view.queue, blind_as))
        snap = snapshot(view)
        if snap is None:
            return []
        instance, free = snap
        plan = run_pipeline(instance, packer, planner, sees)
        return [
            Start(g.jobs, g.gpu_type, tuple(free[instance.type_names.index(g.gpu_type)][x] for x in g.gpus))
            for g in plan.groups
            if g.start == 0.0
        ]

    return replan


def _split(pipeline: str) -> tuple[Packer, Planner]:
    packer, _, planner = pipeline.partition("+")
    if pipeline not in PIPELINE_NAMES or packer not in PACKERS or planner not in PLANNERS:
        raise UnknownNameError("packing pipeline", pipeline, PIPELINE_NAMES)
    return packer, planner  # type: ignore[return-value]


def window_mean(series: Series, start: float, end: float) -> float:
    """Time-weighted mean of a step series over [start, end] (0 after its last step's end)."""
    if end <= start:
        return 0.0
    points = [*series, (max(end, series[-1][0]), 0)]
    area = sum(v * max(0.0, min(t1, end) - max(t0, start)) for (t0, v), (t1, _) in pairwise(points))
    return area / (end - start)


def overtime_series(instance: PackingInstance, run: OnlineRun) -> Series:
    """Fig. 9's "overtime jobs" over time, read as the jobs past their deadline and not yet
    completed (waiting or running): +1 at a late job's deadline, -1 at its completion."""
    deadline = {j.id: j.deadline for j in instance.jobs}
    return overtime_steps(deadline, [(o.job, o.completion) for o in run.jobs])


def overtime_steps(deadline: Mapping[str, float], completions: Sequence[tuple[str, float]]) -> Series:
    """:func:`overtime_series` from each job's deadline and (job, completion) pairs."""
    steps = sorted(
        step for job, done in completions if done > deadline[job] + TOL for step in ((deadline[job], 1), (done, -1))
    )
    series, count = [(0.0, 0)], 0
    for t, change in steps:
        count += change
        if series[-1][0] == t:
            series[-1] = (t, count)
        else:
            series.append((t, count))
    return tuple(series)


def online_metrics(instance: PackingInstance, run: OnlineRun) -> dict[str, float]:
    """Validated, evaluator-scored metrics of a run plus its queue statistics."""
    FAMILY.validate(instance, run.solution)
    evaluation = FAMILY.evaluate(instance, run.solution)
    m = evaluation.metrics
    return {
        "objective": evaluation.objective,
        "mean_jct_s": m["mean_jct_s"],
        "p99_jct_s": m["p99_jct_s"],
        "deadline_satisfaction": m["deadline_satisfaction"],
        "late_jobs": m["late_jobs"],
        "makespan_s": m["makespan_s"],
        "pairs": m["pairs"],
        "max_queue": float(max(v for _, v in run.queue)),
        "mean_queue": window_mean(run.queue, 0.0, m["makespan_s"]),
        "max_overtime": float(max(v for _, v in overtime_series(instance, run))),
        "replans": float(run.replans),
    }


def pipeline_replan(pipeline: str, params: Mapping[str, Any] | None = None) -> tuple[Replan, dict[str, Any]]:
    """The policy of a registered pipeline and its resolved parameters (as the offline method's),
    or a plug-in's re-planning policy ``function(view)`` (no parameters)."""
    own = plugins.policy("packing", pipeline)
    if own is not None:
        if params:
            raise PackgapError(f"plug-in policy {pipeline!r} takes no parameters, got {', '.join(sorted(params))}")
        return own.function, {}
    packer, planner = _split(pipeline)
    resolved = BY_NAME[pipeline].resolve_params(params or {})
    return pipeline_policy(packer, planner, pipeline_options(dict(resolved))), resolved


def simulate_pipeline(
    instance: PackingInstance,
    pipeline: str = "dab+mchp",
    *,
    interval_s: float | None = DEFAULT_INTERVAL_S,
    on_events: bool = False,
    params: Mapping[str, Any] | None = None,
) -> OnlineReport:
    """One online run of a registered pipeline, scored by :func:`online_metrics`."""
    policy, resolved = pipeline_replan(pipeline, params)
    run = simulate(instance, policy, interval_s=interval_s, on_events=on_events)
    return OnlineReport(pipeline, resolved, run, online_metrics(instance, run))


def compare_online(
    instance: PackingInstance,
    pipelines: Sequence[str] = PIPELINE_NAMES,
    *,
    interval_s: float | None = DEFAULT_INTERVAL_S,
    on_events: bool = False,
) -> list[OnlineReport]:
    """Every named pipeline online on one instance, with default parameters."""
    return [simulate_pipeline(instance, p, interval_s=interval_s, on_events=on_events) for p in pipelines]


def report_to_dict(report: OnlineReport) -> dict[str, Any]:
    return {
        "pipeline": report.pipeline,
        "params": report.params,
        "metrics": report.metrics,
        "run": run_to_dict(report.run),
    }


def online_document(
    instance: PackingInstance, reports: Sequence[OnlineReport], references: Sequence[Reference]
) -> dict[str, Any]:
    """Runs and the references beside them, as one JSON document (``packgap.jsonio.dumps``)."""
    return {
        "instance": instance.name,
        "references": [asdict(r) for r in references],
        "pipelines": [report_to_dict(r) for r in reports],
    }


#: Muri's online schedulers (``run_sim.py --schedule``): Muri-S orders by remaining GPU time
#: (``multi-resource-blossom-same-gpu``), Muri-L by attained GPU time (``...-unaware``).
MURI_POLICIES: dict[str, MuriOnlineOptions] = {
    "muri-s": MuriOnlineOptions(order="srsf"),
    "muri-l": MuriOnlineOptions(order="las"),
}


def _check_muri(instance: PackingInstance, run: MuriRun) -> None:
    """Every job completes once, starts no earlier than its arrival, ends after its start."""
    arrival = {j.id: j.arrival for j in instance.jobs}
    seen = [o.job for o in run.jobs]
    problems = [f"job {j!r} completes {seen.count(j)} times" for j in arrival if seen.count(j) != 1]
    early = [o for o in run.jobs if o.start < arrival[o.job] - TOL]
    problems += [f"job {o.job!r} starts at {o.start} before it arrives at {arrival[o.job]}" for o in early]
    problems += [f"job {o.job!r} ends before it starts" for o in run.jobs if o.completion < o.start - TOL]
    if problems:
        raise ValidationError("packing", problems)


def muri_metrics(instance: PackingInstance, run: MuriRun) -> dict[str, float]:
    """Eq. 8-10 and the queue statistics of a checked Muri run."""
    _check_muri(instance, run)
    jobs = {j.id: j for j in instance.jobs}
    jct = np.array([o.completion - jobs[o.job].arrival for o in run.jobs])
    late = sum(1 for o in run.jobs if o.completion > jobs[o.job].deadline + TOL)
    mean, share = float(jct.mean()), late / len(run.jobs)
    objective = {"weighted": instance.alpha * mean + instance.beta * share, "mean-jct": mean, "late-count": late}
    makespan = max(o.completion for o in run.jobs)
    return {
        "objective": float(objective[instance.objective]),
        "mean_jct_s": mean,
        "p99_jct_s": float(np.percentile(jct, 99)),
        "deadline_satisfaction": 1.0 - share,
        "late_jobs": float(late),
        "makespan_s": makespan,
        "max_queue": float(max(v for _, v in run.queue)),
        "mean_queue": window_mean(run.queue, 0.0, makespan),
        "preemptions": float(sum(o.preemptions for o in run.jobs)),
        "events": float(run.events),
    }


def muri_report(instance: PackingInstance, policy: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One run of ``muri-s`` or ``muri-l`` as a report document; ``params`` override Muri's
    flags (``multi_resource``, ``packing_num``, ``weight_lbd``, ``autopack``, ``backend``) and
    its loop's constants (``overhead``, ``coincide_s``, ``merge_rel``)."""
    if policy not in MURI_POLICIES:
        raise UnknownNameError("Muri policy", policy, list(MURI_POLICIES))
    base = MURI_POLICIES[policy]
    given = dict(params or {})
    flag_names = set(asdict(base.flags))
    allowed = flag_names | {"autopack", "overhead", "coincide_s", "merge_rel"}
    for name in given:
        if name not in allowed:
            raise UnknownNameError("Muri parameter", name, sorted(allowed))
    flags = replace(base.flags, **{k: v for k, v in given.items() if k in flag_names})
    options = replace(base, flags=flags, **{k: v for k, v in given.items() if k not in flag_names})
    run = simulate_muri(instance, options)
    resolved = {"order": options.order, **asdict(flags), "autopack": options.autopack, "overhead": options.overhead}
    return {
        "pipeline": policy,
        "params": resolved,
        "metrics": muri_metrics(instance, run),
        "run": {
            "events": run.events,
            "jobs": [asdict(o) for o in run.jobs],
            "queue": [list(p) for p in run.queue],
        },
    }
