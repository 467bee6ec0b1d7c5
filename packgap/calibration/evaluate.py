"""The one validator and the one evaluator of the calibration family.

Both read only the instance and the solution: GIMBAL, the exact searches and the bound are
never trusted for feasibility or for the objective. The evaluator recomputes every worker's
speed from the shares (:mod:`packgap.calibration.speed`), every job's step time from the
sample split, and the local objective of section 5.2 from the remaining times.
"""

from __future__ import annotations

from packgap.calibration.instance import CalibrationInstance
from packgap.calibration.objectives import instance_objective, lateness, local_objective
from packgap.calibration.solution import CalibrationSolution
from packgap.calibration.speed import FULL, speeds, split_step
from packgap.calibration.topology import data_problems, topology_problems
from packgap.errors import ValidationError
from packgap.family import Evaluation

#: Relative tolerance of a job's sample sum against its global batch (float round-off of LISS).
SAMPLE_TOL = 1e-6
#: Absolute tolerance (percentage points) of a share against its grid level.
GRID_TOL = 1e-6


def on_grid(share: float, granularity: float) -> bool:
    """True when ``share`` is one of 100, 100 - g, 100 - 2g, ... >= 0."""
    steps = (FULL - share) / granularity
    return -GRID_TOL <= share <= FULL + GRID_TOL and abs(steps - round(steps)) * granularity <= GRID_TOL


def validate(instance: CalibrationInstance, solution: CalibrationSolution) -> None:
    """Raise :class:`ValidationError` naming every broken rule, each with its field path.

    Rules: the job set obeys section 5.1 and has speed data; the solution calibrates every
    job exactly once with one share and one sample count per worker; shares lie in [0, 100]
    on the instance's granularity grid; samples are >= 0 and sum to the job's global batch
    (LISS is lossless, section 4.1); a worker with speed 0 holds no samples.
    """
    problems = [str(p) for p in (*data_problems(instance), *topology_problems(instance))]
    if problems:
        raise ValidationError("calibration", problems)
    g = instance.granularity
    index = {job.id: j for j, job in enumerate(instance.jobs)}
    seen: dict[str, int] = {}
    for i, cal in enumerate(solution.jobs):
        path = f"jobs[{i}]"
        if cal.id not in index:
            problems.append(f"{path}.id: unknown job {cal.id!r}")
            continue
        if cal.id in seen:
            problems.append(f"{path}.id: job {cal.id!r} calibrated twice (first at jobs[{seen[cal.id]}])")
            continue
        seen[cal.id] = i
        job = instance.jobs[index[cal.id]]
        sizes = [(name, len(values)) for name, values in (("shares", cal.shares), ("samples", cal.samples))]
        wrong = [f"{path}.{name}: {n} values for {job.world_size} workers" for name, n in sizes if n != job.world_size]
        if wrong:
            problems += wrong
            continue
        for k, share in enumerate(cal.shares):
            if not 0 <= share <= FULL:
                problems.append(f"{path}.shares[{k}]: share {share:g} outside [0, 100]")
            elif not on_grid(share, g):
                problems.append(f"{path}.shares[{k}]: share {share:g} is off the {g:g} % grid (100, {FULL - g:g}, ...)")
        for k, b in enumerate(cal.samples):
            if b < 0:
                problems.append(f"{path}.samples[{k}]: {b:g} samples (must be >= 0)")
        total = sum(cal.samples)
        if abs(total - job.batch) > SAMPLE_TOL * job.batch:
            problems.append(f"{path}.samples: sum {total:g} differs from the job's global batch {job.batch}")
    missing = [job.id for job in instance.jobs if job.id not in seen]
    if missing:
        problems.append(f"jobs: {len(missing)} job(s) not calibrated: {', '.join(missing[:10])}")
    if not problems:
        problems += _zero_speed_problems(instance, solution)
    if problems:
        raise ValidationError("calibration", problems)


def _zero_speed_problems(instance: CalibrationInstance, solution: CalibrationSolution) -> list[str]:
    ordered = [solution.job(job.id) for job in instance.jobs]
    v = speeds(instance, [c.shares for c in ordered])
    position = {c.id: i for i, c in enumerate(solution.jobs)}
    return [
        f"jobs[{position[c.id]}].samples[{k}]: the worker has speed 0 (share {c.shares[k]:g}) but holds {b:g} samples"
        for j, c in enumerate(ordered)
        for k, b in enumerate(c.samples)
        if b > 0 and v[j][k] <= 0
    ]


def remaining_times(instance: CalibrationInstance, solution: CalibrationSolution) -> list[float]:
    """R_j = RemainingSteps_j x step time_j (s) of every job, in instance order."""
    ordered = [solution.job(job.id) for job in instance.jobs]
    v = speeds(instance, [c.shares for c in ordered])
    fixed = [instance.throughput.profile(job.model).fixed_cost for job in instance.jobs]
    return [job.remaining_steps * split_step(fixed[j], ordered[j].samples, v[j]) for j, job in enumerate(instance.jobs)]


def evaluate(instance: CalibrationInstance, solution: CalibrationSolution) -> Evaluation:
    """Objective: the instance's local objective (section 5.2); metrics: all three and the search."""
    times = remaining_times(instance, solution)
    deadlines = [job.deadline for job in instance.jobs]
    late = lateness(times, instance.now, deadlines)
    metrics = {
        "jct_s": float(local_objective("jct", times, instance.now, deadlines)),
        "makespan_s": max(times),
        "max_lateness_s": float(late.max()),
        "late_jobs": float((late > 0).sum()),
        "restricted_workers": float(sum(s < FULL for c in solution.jobs for s in c.shares)),
        **{k: float(v) for k, v in solution.search.items()},
    }
    return Evaluation(objective=instance_objective(instance, times), metrics=metrics)
