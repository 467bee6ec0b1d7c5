"""Job priorities of GIMBAL section 5.2 (eqs. 2, 4 and 6), with the signs the text states.

Algorithm 1 swells the high-priority subset and squeezes the other, so a priority must be
high for the job that deserves resources. The text's rules (DESIGN.md, "Slips"):

* ``jct``: squeeze the lowest-utilisation job, so priority = +Utilization_j. As printed,
  eq. 2 is -Utilization_j, which swells that job instead.
* ``deadline``: "jobs closer to their deadlines have higher priority", so priority =
  now + R_j - Deadline_j (minus the headroom). As printed, eq. 4 is the headroom itself.
* ``makespan``: "shorter jobs are squeezed", so priority = +R_j. As printed, eq. 6 is -R_j.

``reading="printed"`` gives the equations as printed, for comparison. Utilization_j is the
model's solo GPU utilisation (the runtime monitor's number in GIMBAL; packgap has no
monitor).

A subset's priority (Algorithm 1 line 3, section 5.2) is not defined when its jobs differ;
the paper is silent. ``subset="max"`` (default) takes the highest priority among its jobs: the
text's rules all hinge on the most urgent job. ``subset="min"`` takes the lowest: a subset is
only as deserving as its least urgent job. On Table 3's JC7 and JC8, J_max ties at the max
with a partner of equal utilisation, so subset1 = {J_max} is squeezed on every GPU and the
partners never move; the min reading squeezes the partners instead (measured gaps to the grid
optimum in README, "Calibration (GIMBAL)").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from packgap.calibration import CalibrationInstance
from packgap.errors import UnknownNameError

READINGS = ("text", "printed")
SUBSET_READINGS = ("max", "min")


def priorities(instance: CalibrationInstance, times: Sequence[float], reading: str = "text") -> list[float]:
    """Priority of every job (instance order) given its remaining time R_j (s)."""
    if reading not in READINGS:
        raise UnknownNameError("priority reading", reading, list(READINGS))
    sign = 1.0 if reading == "text" else -1.0
    if instance.objective == "jct":
        return [sign * instance.throughput.profile(j.model).utilization for j in instance.jobs]
    if instance.objective == "deadline":
        return [sign * (instance.now + r - j.deadline) for j, r in zip(instance.jobs, times, strict=True)]
    return [sign * r for r in times]


def subset_priority(values: Sequence[float], subset: Iterable[int], reading: str = "max") -> float:
    """The priority of a subset of jobs: the max (or min) of its jobs' priorities."""
    if reading not in SUBSET_READINGS:
        raise UnknownNameError("subset priority reading", reading, list(SUBSET_READINGS))
    pick = max if reading == "max" else min
    return pick(values[j] for j in subset)
