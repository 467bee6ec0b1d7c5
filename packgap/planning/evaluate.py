"""The one validator and the one evaluator of the planning family.

Both read only the instance and the solution: producers (heuristics, MILP, CP-SAT, flow)
are never trusted for feasibility or for the objective.
"""

from __future__ import annotations

from dataclasses import dataclass

from packgap.errors import ValidationError
from packgap.family import Evaluation
from packgap.planning.instance import PlanningInstance
from packgap.planning.solution import PlanningSolution


@dataclass(frozen=True)
class Slot:
    """Where and when one group runs in a plan."""

    group: str
    gpu_type: str
    gpu: int
    start: float
    end: float


def validate(instance: PlanningInstance, solution: PlanningSolution) -> None:
    """Raise :class:`ValidationError` naming every broken rule.

    Rules: each GPU type exists; each GPU index is below its type's count; each GPU has
    at most one sequence; each group is known and planned exactly once.
    """
    counts = {t.name: t.count for t in instance.gpu_types}
    known = instance.group_index()
    problems: list[str] = []
    gpus_seen: set[tuple[str, int]] = set()
    placed: dict[str, int] = {}
    for i, seq in enumerate(solution.sequences):
        where = f"sequences[{i}]"
        if seq.gpu_type not in counts:
            problems.append(f"{where}: unknown GPU type {seq.gpu_type!r}")
        elif not 0 <= seq.gpu < counts[seq.gpu_type]:
            problems.append(
                f"{where}: GPU {seq.gpu} out of range for {seq.gpu_type!r} "
                f"(capacity: {counts[seq.gpu_type]} GPUs, indices 0..{counts[seq.gpu_type] - 1})"
            )
        if (seq.gpu_type, seq.gpu) in gpus_seen:
            problems.append(f"{where}: GPU {seq.gpu_type}#{seq.gpu} has two sequences")
        gpus_seen.add((seq.gpu_type, seq.gpu))
        for gid in seq.groups:
            if gid not in known:
                problems.append(f"{where}: unknown group {gid!r}")
            placed[gid] = placed.get(gid, 0) + 1
    for gid, times in placed.items():
        if times > 1 and gid in known:
            problems.append(f"group {gid!r} planned {times} times (must be exactly once)")
    missing = [g.id for g in instance.groups if g.id not in placed]
    if missing:
        problems.append(f"{len(missing)} group(s) not planned: {', '.join(missing[:10])}")
    if problems:
        raise ValidationError("planning", problems)


def schedule(instance: PlanningInstance, solution: PlanningSolution) -> list[Slot]:
    """Start and end of every group: each GPU runs its sequence back to back from time 0."""
    type_pos = {name: k for k, name in enumerate(instance.type_names)}
    groups = instance.group_index()
    slots: list[Slot] = []
    for seq in solution.sequences:
        k = type_pos[seq.gpu_type]
        clock = 0.0
        for gid in seq.groups:
            end = clock + instance.groups[groups[gid]].times[k]
            slots.append(Slot(gid, seq.gpu_type, seq.gpu, clock, end))
            clock = end
    return slots


def evaluate(instance: PlanningInstance, solution: PlanningSolution) -> Evaluation:
    """Objective = sum of group completion times + tardiness_weight x total tardiness.

    This is the sum over groups of MCHP's edge cost C1 + C2 (CUCKOO eq. 13-14) with each
    group's real completion time in place of the paper's average-time estimate.
    """
    deadlines = {g.id: g.deadline for g in instance.groups}
    slots = schedule(instance, solution)
    completion = sum(s.end for s in slots)
    tardiness = [max(0.0, s.end - deadlines[s.group]) for s in slots]
    objective = completion + instance.tardiness_weight * sum(tardiness)
    return Evaluation(
        objective=objective,
        metrics={
            "sum_completion_s": completion,
            "mean_completion_s": completion / max(1, len(slots)),
            "total_tardiness_s": sum(tardiness),
            "late_groups": float(sum(1 for t in tardiness if t > 0)),
            "makespan_s": max((s.end for s in slots), default=0.0),
        },
    )
