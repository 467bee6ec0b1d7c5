"""Packing + planning pipelines: CUCKOO's two phases end to end (section 3.3).

1. *Packing* forms groups: DAB (CUCKOO), Muri's Blossom as CUCKOO reads it, Muri as
   released (:mod:`packgap.heuristics.packing.muri`, groups of up to 4) or none; then the
   anti-overpacking rule (CUCKOO's heterogeneity-weighted one after DAB, the GPU count after
   Blossom; section 3.3.4) may split pairs. ``muri`` applies its own rule instead: it merges
   only while the demand exceeds the cluster's GPUs.
2. *Planning* maps groups to (GPU type, order) with a planning-family heuristic (MCHP, FIFO
   or EDF, :mod:`packgap.heuristics.planning`). The planning family assumes one GPU per group
   (section 3.3.3), so groups of demand ``d`` are planned on ``count // d`` "slots" per GPU
   type, one planning instance per demand; group times come from the exact group timeline
   under the packer's estimator, a group's deadline is its earliest member deadline, and
   groups are queued by their earliest member arrival.
3. The plan becomes a schedule: groups in order of planned start take, on their planned
   GPU type, the ``d`` GPUs that free up first, and start when those are free and every
   member has arrived (eq. 6), shifting right when needed. Real durations here come from
   the instance's ground-truth model so that the schedule is feasible by construction.

Readings chosen: CUCKOO packs and plans the waiting jobs in batches ("DL training jobs
usually come into the system and are processed in a batch mode", section 5.3). Offline,
the jobs arriving in each ``window_s`` window (1,000 s, the windows of the Helios pattern,
section 4.1; 0 puts every job in one batch) form one batch, packed and planned on its own
with ``now`` = its first arrival and deadlines counted from ``now``; step 3 takes the
batches in order, so GPUs busy with earlier batches delay later ones. Packing one batch
of every job would pair jobs that arrive hours apart. With several demands the
per-demand plans share the cluster in step 3.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from packgap.deadline import checked
from packgap.errors import UnknownNameError
from packgap.gpus import GpuType
from packgap.heuristics.packing.anti_overpacking import (
    gpu_count_target,
    unpack,
    weighted_target,
)
from packgap.heuristics.packing.blossom import muri_blossom
from packgap.heuristics.packing.dab import dab
from packgap.heuristics.packing.muri import MuriOptions, muri_groups
from packgap.heuristics.packing.scores import group_eff, group_times
from packgap.heuristics.packing.singles import no_packing
from packgap.heuristics.packing.stages import PACKERS, PLANNERS, Packer, PipelineOptions, Planner
from packgap.heuristics.planning import edf, fifo, mchp
from packgap.packing import Job, PackingInstance, PackingSolution, PlacedGroup
from packgap.packing.groups import Groups, default_now
from packgap.packing.instance import Interleaving
from packgap.packing.timeline import timeline
from packgap.planning import Group, PlanningInstance, PlanningSolution


def _estimator(packer: Packer, options: PipelineOptions) -> Interleaving:
    if options.estimator is not None:
        return options.estimator
    own: dict[Packer, Interleaving] = {"blossom": "muri-p", "muri": "muri"}
    return own.get(packer, "am")


def pack(instance: PackingInstance, packer: Packer, options: PipelineOptions) -> Groups:
    """Packing phase: groups of job ids, after anti-overpacking when enabled."""
    model = _estimator(packer, options)
    if packer == "none":
        return no_packing(instance)
    if packer == "dab":
        groups = dab(
            instance,
            w=options.w,
            estimator=model,
            neighbours=options.neighbours,
            min_eff=options.min_eff,
            backend=options.backend,
        )
    elif packer == "blossom":
        groups = muri_blossom(
            instance, estimator=model, neighbours=options.neighbours, min_eff=options.min_eff, backend=options.backend
        )
    elif packer == "muri":
        flags = MuriOptions(options.multi_resource, options.packing_num, options.weight_lbd, options.backend)
        return muri_groups(instance, options=flags, autopack=options.autopack)
    else:
        raise UnknownNameError("packer", packer, PACKERS)
    if not options.anti_overpacking:
        return groups
    if packer == "dab":
        target = weighted_target(instance, group_times(instance, groups, model))
    else:
        target = gpu_count_target(instance)
    return unpack(instance, groups, target, lambda g: group_eff(instance, g, model))


def _queue(instance: PackingInstance, groups: Groups) -> list[int]:
    index = instance.job_index()
    first = [min(instance.jobs[index[j]].arrival for j in g) for g in groups]
    return sorted(range(len(groups)), key=lambda i: (first[i], i))


def batches(instance: PackingInstance, window_s: float) -> list[PackingInstance]:
    """The jobs arriving in each ``window_s`` window after the first arrival (0: one batch)."""
    if window_s < 0:
        raise ValueError(f"window_s must be >= 0, got {window_s}")
    if window_s == 0:
        return [instance]
    first = min(j.arrival for j in instance.jobs)
    windows: dict[int, list[Job]] = {}
    for job in instance.jobs:
        windows.setdefault(int((job.arrival - first) // window_s), []).append(job)
    return [replace(instance, jobs=tuple(windows[w])) for w in sorted(windows)]


def planning_instances(
    instance: PackingInstance, groups: Groups, estimator: Interleaving, now: float = 0.0
) -> list[tuple[int, PlanningInstance]]:
    """One planning instance per GPU demand, times counted from ``now``; group ``i`` of
    ``groups`` is named ``g{i}``."""
    index = instance.job_index()
    times = group_times(instance, groups, estimator)
    result = []
    for d in sorted({instance.jobs[index[g[0]]].gpus for g in groups}):
        kept = [k for k, t in enumerate(instance.gpu_types) if t.count // d > 0]
        plan_groups = tuple(
            Group(
                f"g{i}",
                tuple(float(times[i, k]) for k in kept),
                max(0.0, min(instance.jobs[index[j]].deadline for j in groups[i]) - now),
                groups[i],
            )
            for i in _queue(instance, groups)
            if instance.jobs[index[groups[i][0]]].gpus == d
        )
        types = tuple(GpuType(instance.gpu_types[k].name, instance.gpu_types[k].count // d) for k in kept)
        result.append((d, PlanningInstance(f"{instance.name}-d{d}", types, plan_groups)))
    return result


Plan = tuple[Groups, Sequence[tuple[PlanningInstance, PlanningSolution]]]


def schedule_plans(instance: PackingInstance, plans: Sequence[Plan]) -> PackingSolution:
    """Step 3: batch by batch, planned order and GPU type -> GPUs and start times."""
    index = instance.job_index()
    order: list[tuple[int, float, int, str]] = []
    for batch, (_, batch_plans) in enumerate(plans):
        for plan_instance, plan in batch_plans:
            times = {g.id: dict(zip(plan_instance.type_names, g.times, strict=True)) for g in plan_instance.groups}
            for seq in plan.sequences:
                clock = 0.0
                for gid in seq.groups:
                    order.append((batch, clock, int(gid[1:]), seq.gpu_type))
                    clock += times[gid][seq.gpu_type]
    free = {t.name: [0.0] * t.count for t in instance.gpu_types}
    placed: list[PlacedGroup] = []
    for batch, _, i, name in checked(sorted(order)):
        group = plans[batch][0][i]
        jobs = [instance.jobs[index[j]] for j in group]
        k = instance.type_names.index(name)
        gpus = sorted(range(len(free[name])), key=lambda x: (free[name][x], x))[: jobs[0].gpus]
        start = max([j.arrival for j in jobs] + [free[name][x] for x in gpus])
        end = start + timeline(jobs, k, name, instance.interleaving, instance.interference).duration
        for x in gpus:
            free[name][x] = end
        placed.append(PlacedGroup(group, name, tuple(sorted(gpus)), start))
    return PackingSolution(tuple(placed))


def _planner(planner: Planner, options: PipelineOptions) -> Callable[[PlanningInstance], PlanningSolution]:
    if planner == "mchp":
        return lambda p: mchp(p, options.deadline_weight, gpu_order=options.gpu_order)
    if planner == "fifo":
        return lambda p: fifo(p, options.gpu_choice)
    if planner == "edf":
        return lambda p: edf(p, options.gpu_choice)
    raise UnknownNameError("planner", planner, PLANNERS)


def homogeneous_view(instance: PackingInstance, gpu_type: str) -> PackingInstance:
    """The instance as a heterogeneity-blind scheduler sees it: every GPU type behaves like
    ``gpu_type`` (CUCKOO-Homo, section 4.6: "assumes all GPUs are NVIDIA RTX4090 during job
    packing and execution planning"). Only packing and planning see it; the schedule of
    step 3 runs on the real instance."""
    if gpu_type not in instance.type_names:
        raise UnknownNameError("GPU type", gpu_type, instance.type_names)
    k = instance.type_names.index(gpu_type)
    jobs = tuple(replace(j, profiles=(j.profiles[k],) * len(j.profiles)) for j in instance.jobs)
    return replace(instance, jobs=jobs)


def run_pipeline(
    instance: PackingInstance, packer: Packer, planner: Planner, options: PipelineOptions
) -> PackingSolution:
    """``packer+planner`` end to end, e.g. ``dab+mchp`` (CUCKOO) or ``blossom+mchp``; the
    deadline in force (:mod:`packgap.deadline`) is checked between the stages and as the
    groups are placed."""
    plan = _planner(planner, options)
    model = _estimator(packer, options)
    plans: list[Plan] = []
    for batch, groups in packed_batches(instance, packer, options):
        now = default_now(batch)
        plans.append((groups, [(p, plan(p)) for _, p in checked(planning_instances(batch, groups, model, now), 1)]))
    return schedule_plans(instance, plans)


def packed_batches(
    instance: PackingInstance, packer: Packer, options: PipelineOptions
) -> list[tuple[PackingInstance, Groups]]:
    """Each arrival batch (as packing sees it) with the groups the packer forms in it."""
    seen = homogeneous_view(instance, options.homogeneous_as) if options.homogeneous_as else instance
    return [(batch, pack(batch, packer, options)) for batch in checked(batches(seen, options.window_s), 1)]
