"""The one validator and the one evaluator of the sharing family.

Both replay the schedule through the progress model (:mod:`packgap.sharing.progress`):
finish times, GPU occupancy and memory are recomputed, never taken from the producer.
"""

from __future__ import annotations

import numpy as np

from packgap.errors import ValidationError
from packgap.family import Evaluation
from packgap.sharing.instance import SharingInstance
from packgap.sharing.perf import Perf, steps
from packgap.sharing.progress import TIME_TOL, Holding, Replay, replay
from packgap.sharing.solution import SharingSolution

#: A claimed finish may differ from the recomputed one by this much (s) plus FINISH_REL x t.
FINISH_ABS = 1e-4
FINISH_REL = 1e-6


def _static(instance: SharingInstance, solution: SharingSolution) -> list[str]:
    jobs = {j.id: j for j in instance.jobs}
    problems: list[str] = []
    seen: set[str] = set()
    for j in solution.jobs:
        where = f"job {j.id!r}"
        if j.id not in jobs:
            problems.append(f"{where}: not in the instance")
            continue
        if j.id in seen:
            problems.append(f"{where}: scheduled twice")
        seen.add(j.id)
        job = jobs[j.id]
        if not 1 <= j.batch <= job.batch:
            problems.append(f"{where}: sub-batch {j.batch} outside [1, B = {job.batch}]")
        elif j.steps != steps(job.batch, j.batch):
            problems.append(f"{where}: {j.steps} accumulation steps, but ceil(B / b) = {steps(job.batch, j.batch)}")
        if solution.preemptive is False and len(j.segments) > 1:
            problems.append(f"{where}: {len(j.segments)} segments in a non-preemptive schedule (no preemption)")
        if j.start < job.arrival - TIME_TOL:
            problems.append(f"{where}: starts at {j.start:g} s, before its arrival at {job.arrival:g} s")
        for k, seg in enumerate(j.segments):
            at = f"{where} segment {k}"
            if len(seg.gpus) != job.gpus or len(set(seg.gpus)) != len(seg.gpus):
                problems.append(f"{at}: {len(set(seg.gpus))} distinct GPUs, the job needs {job.gpus} (gang)")
            bad = [g for g in seg.gpus if g >= instance.cluster.gpus]
            if bad:
                problems.append(f"{at}: GPU ids {bad} beyond the cluster's {instance.cluster.gpus} GPUs")
            last = k == len(j.segments) - 1
            if last and seg.stop is not None:
                problems.append(f"{at}: the last segment runs to completion and has no stop")
            if not last and (seg.stop is None or seg.stop <= seg.start):
                problems.append(f"{at}: a resumed job needs a stop after each earlier segment's start")
            if not last and seg.stop is not None and j.segments[k + 1].start < seg.stop - TIME_TOL:
                problems.append(f"{at}: the next segment starts before this one stops")
    missing = [j.id for j in instance.jobs if j.id not in seen]
    if missing:
        problems.append(f"{len(missing)} job(s) never scheduled: {', '.join(missing[:10])}")
    return problems


def _occupancy(
    instance: SharingInstance, perf: Perf, holdings: tuple[Holding, ...], batch: dict[str, int]
) -> list[str]:
    """At most C jobs per GPU and the workers' memory fits, at every instant (eq. 9)."""
    per_gpu: dict[int, list[Holding]] = {}
    for h in holdings:
        if h.end - h.start > TIME_TOL:
            for g in h.gpus:
                per_gpu.setdefault(g, []).append(h)
    cap, mem = instance.cluster.max_jobs_per_gpu, instance.cluster.gpu_memory_gb
    problems: list[str] = []
    for g, hs in sorted(per_gpu.items()):
        events = sorted([(h.end - TIME_TOL, 0, h.job) for h in hs] + [(h.start, 1, h.job) for h in hs])
        on: dict[str, float] = {}
        for t, starts, jid in events:
            if not starts:
                on.pop(jid, None)
                continue
            on[jid] = perf.memory(jid, batch[jid])
            if len(on) > cap:
                problems.append(f"GPU {g} at t = {t:g} s holds {len(on)} jobs ({', '.join(sorted(on))}) > C = {cap}")
            if sum(on.values()) > mem + 1e-9:
                problems.append(
                    f"GPU {g} at t = {t:g} s: workers of {', '.join(sorted(on))} need "
                    f"{sum(on.values()):.3f} GB > {mem:g} GB"
                )
    return problems


def _dynamic(instance: SharingInstance, solution: SharingSolution, rep: Replay) -> list[str]:
    problems = []
    by_job: dict[str, list[Holding]] = {}
    for h in rep.holdings:
        by_job.setdefault(h.job, []).append(h)
    for j in solution.jobs:
        finish = rep.run.records[j.id].finish
        if abs(finish - j.finish) > FINISH_ABS + FINISH_REL * abs(finish):
            problems.append(f"job {j.id!r}: claims to finish at {j.finish:g} s; its I_j iterations end at {finish:g} s")
        for k, seg in enumerate(j.segments[:-1]):
            if seg.stop is not None and seg.stop > finish + TIME_TOL:
                problems.append(f"job {j.id!r} segment {k}: stops at {seg.stop:g} s, after the job finished")
        if j.co_runner is not None:
            holds = [
                h
                for h in by_job.get(j.co_runner, [])
                if h.start <= j.start + TIME_TOL < h.end and set(h.gpus) & set(j.gpus)
            ]
            if not holds:
                problems.append(f"job {j.id!r}: co-runner {j.co_runner!r} holds none of its GPUs at its start")
    return problems


def validate(instance: SharingInstance, solution: SharingSolution) -> None:
    """Raise :class:`ValidationError` naming every broken rule.

    Rules: every job scheduled once; 1 <= b <= B and s = ceil(B / b); gang allocation of
    exactly G_j distinct GPUs of the cluster; start >= arrival; one segment per job unless
    the schedule is preemptive; at most C jobs per GPU and their workers' memory fits at
    every instant; each claimed finish is when the job's I_j iterations end under the
    progress model; a named co-runner holds one of the job's GPUs when it starts.
    """
    problems = _static(instance, solution)
    if problems:
        raise ValidationError("sharing", problems)
    perf = Perf(instance)
    rep = replay(instance, solution, perf)
    batch = {j.id: j.batch for j in solution.jobs}
    problems = _occupancy(instance, perf, rep.holdings, batch) + _dynamic(instance, solution, rep)
    if problems:
        raise ValidationError("sharing", problems)


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else 0.0


def _job_times(instance: SharingInstance, rep: Replay) -> tuple[dict[str, float], dict[str, float]]:
    recs = rep.run.records
    return {j.id: recs[j.id].completion for j in instance.jobs}, {j.id: recs[j.id].queuing for j in instance.jobs}


def _not_running(instance: SharingInstance, rep: Replay) -> dict[str, float]:
    """Each job's JCT minus the time it held its GPUs (s): its queuing plus every wait after
    a preemption. Equal to the queuing of a non-preemptive schedule; a resume's overhead is
    time holding GPUs, so it counts as running."""
    recs = rep.run.records
    return {j.id: recs[j.id].completion - sum(s.end - s.start for s in recs[j.id].segments) for j in instance.jobs}


def job_times(instance: SharingInstance, solution: SharingSolution) -> tuple[dict[str, float], dict[str, float]]:
    """Each job's JCT and queuing (arrival to first start), s, by job id: what :func:`evaluate` averages."""
    return _job_times(instance, replay(instance, solution))


def evaluate(instance: SharingInstance, solution: SharingSolution) -> Evaluation:
    """Objective = average JCT (s) (eq. 15 divided by the job count), recomputed by replay.

    Metrics: makespan, average queuing (arrival to first start), average time not running
    (JCT minus the time holding GPUs: queuing plus the waits of a preempted job; SJF-BSBF's
    Tables III-IV do not say which of the two their Tiresias queuing is), the paper's large
    (> 4 GPUs) and small averages of both, JCT percentiles, jobs that started sharing, preemptions.
    """
    rep = replay(instance, solution)
    jct, queue = _job_times(instance, rep)
    idle = _not_running(instance, rep)
    large = [j.id for j in instance.jobs if j.large]
    small = [j.id for j in instance.jobs if not j.large]
    values = list(jct.values())
    metrics = {
        "avg_jct_s": _mean(values),
        "makespan_s": rep.run.makespan,
        "avg_queuing_s": _mean(list(queue.values())),
        "large_jobs": float(len(large)),
        "large_avg_jct_s": _mean([jct[i] for i in large]),
        "small_avg_jct_s": _mean([jct[i] for i in small]),
        "large_avg_queuing_s": _mean([queue[i] for i in large]),
        "small_avg_queuing_s": _mean([queue[i] for i in small]),
        "avg_not_running_s": _mean(list(idle.values())),
        "large_avg_not_running_s": _mean([idle[i] for i in large]),
        "small_avg_not_running_s": _mean([idle[i] for i in small]),
        "shared_jobs": float(sum(1 for j in solution.jobs if j.co_runner is not None)),
        "preemptions": float(sum(r.preemptions for r in rep.run.records.values())),
    }
    for q in (50, 90, 99):
        metrics[f"jct_p{q}_s"] = float(np.percentile(values, q)) if values else 0.0
    return Evaluation(objective=metrics["avg_jct_s"], metrics=metrics)
