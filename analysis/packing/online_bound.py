"""References for online runs: a proven lower bound on mean JCT, or the offline optimum.

Every online schedule is also a feasible offline schedule of the same instance, so the
offline optimum of eq. 8 (mean JCT) bounds every online policy from below, and so does any
lower bound on it. Two are offered:

* :func:`jct_lower_bound`, always computable: a job completes no earlier than its arrival
  plus its shortest possible completion offset on the exact group timeline
  (:mod:`packgap.packing.timeline`): alone on its fastest GPU type, or paired with the partner
  of equal demand (eq. 3) that finishes it soonest. Pairing can only help a job whose
  interleaved iteration is shorter than its standalone one, and then most with the partner
  of most iterations; the bound takes that into account instead of assuming that
  interleaving never speeds a job up. Costs O(N x kinds x GPU types).
* the offline optimum of an exact method (``exact-cpsat``, ``exact-milp``) run through
  :func:`packgap.analysis.run.solve` on the instance with ``objective = "mean-jct"``: reported as
  "offline optimum" only when proven optimal, else its proven bound as "offline bound".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from packgap.analysis.packing.methods import BY_NAME
from packgap.analysis.run import solve
from packgap.packing import FAMILY, PackingInstance
from packgap.packing.instance import Job
from packgap.packing.timeline import MS, iteration_ms
from packgap.result import Status
from packgap.solvers.outcome import SolveOptions


@dataclass(frozen=True)
class Reference:
    """A value every online mean JCT must reach: ``kind`` is "lower bound", "offline bound" or
    "offline optimum"; ``source`` names how it was obtained."""

    kind: str
    mean_jct_s: float
    source: str


def _offset_ms(job: Job, k: int, partners: list[Job], instance: PackingInstance) -> float:
    """Shortest completion offset (ms) of ``job`` on GPU type ``k``, alone or with one partner."""
    model, lam = instance.interleaving, instance.interference
    alone = iteration_ms([job.member(k)], model, lam)
    best = job.iterations * alone
    for partner in partners:
        together = iteration_ms([job.member(k), partner.member(k)], model, lam)
        if together < alone:
            shared = min(job.iterations, partner.iterations)
            best = min(best, shared * together + (job.iterations - shared) * alone)
    return best


def jct_lower_bound(instance: PackingInstance) -> float:
    """Proven lower bound (s) on the mean JCT of every valid schedule (module docstring)."""
    kinds: dict[tuple[object, ...], list[Job]] = {}
    for job in instance.jobs:
        kinds.setdefault((job.profiles, job.sync, job.gpus), []).append(job)
    # Per kind, its two longest jobs: the longest partner other than the job itself.
    longest = {key: sorted(members, key=lambda j: -j.iterations)[:2] for key, members in kinds.items()}
    total = 0.0
    for job in instance.jobs:
        partners = [
            next(p for p in top if p is not job)
            for key, top in longest.items()
            if key[2] == job.gpus and any(p is not job for p in top)
        ]
        total += min(_offset_ms(job, k, partners, instance) for k in range(len(instance.gpu_types))) * MS
    return total / len(instance.jobs)


def references(
    instance: PackingInstance, *, exact: str | None = None, options: SolveOptions | None = None
) -> list[Reference]:
    """The lower bound, plus the offline optimum (or its bound) of method ``exact`` if named."""
    result = [Reference("lower bound", jct_lower_bound(instance), "standalone-or-best-partner offsets")]
    if exact is None:
        return result
    offline = solve(
        FAMILY,
        replace(instance, objective="mean-jct"),
        BY_NAME[exact],
        options=options or SolveOptions(time_limit=60.0),
    )
    if offline.status == Status.OPTIMAL and offline.objective is not None:
        result.append(Reference("offline optimum", offline.objective, exact))
    elif offline.bound is not None and math.isfinite(offline.bound):
        result.append(Reference("offline bound", offline.bound, exact))
    return result
