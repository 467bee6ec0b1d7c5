"""What the exact calibration searches see of a job set: GPUs, their share options, job terms.

By the topology rule of section 5.1 every GPU of a job set holds a worker of J_max, and at
most one worker of one other job k. So the speeds on GPU g depend only on the two shares
there, (s_g, t_g), and, with the LISS split, a job's step time depends only on the *sum* of
its workers' speeds (c + B / sum v, :mod:`packgap.calibration.speed`). Two exact facts
shrink the search:

* a J_max worker alone on its GPU runs fastest at 100 % (its speed is nondecreasing in its
  own share when nobody shares the GPU), so solo GPUs are fixed;
* every local objective of section 5.2 is nonincreasing in every job's speed sum, so on
  each job's GPUs only (partner speed sum, J_max speed sum) pairs that no other choice beats
  in both matter (a Pareto frontier; :mod:`packgap.models.calibration.frontier`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from packgap.calibration import CalibrationInstance
from packgap.calibration.speed import FULL, worker_speed

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class SharedGpu:
    """A GPU of J_max worker ``big_worker`` and worker ``worker`` of partner job ``job``."""

    gpu: int
    job: int
    worker: int
    big_worker: int


@dataclass(frozen=True)
class Layout:
    instance: CalibrationInstance
    big: int
    shared: tuple[SharedGpu, ...]
    solo_workers: tuple[int, ...]

    @property
    def partners(self) -> list[int]:
        """Jobs other than J_max, in instance order."""
        return [j for j in range(len(self.instance.jobs)) if j != self.big]

    def gpus_of(self, job: int) -> list[int]:
        """Indices into ``shared`` of the GPUs of a partner job."""
        return [i for i, s in enumerate(self.shared) if s.job == job]

    def solo_speed(self) -> float:
        """Speed sum of J_max's workers alone on their GPUs, each at 100 %."""
        prof = self.instance.throughput.profile(self.instance.jobs[self.big].model)
        return prof.speed * len(self.solo_workers)

    def speeds(self, gpu: SharedGpu, s: FloatArray, t: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(J_max worker speed, partner worker speed) at J_max share ``s`` and partner share ``t``."""
        tm = self.instance.throughput
        big_model = self.instance.jobs[self.big].model
        model = self.instance.jobs[gpu.job].model
        pb, pk = tm.profile(big_model), tm.profile(model)
        a = worker_speed(pb.speed, pb.utilization, tm.alpha, tm.pair_speed(big_model, model), s, t)
        b = worker_speed(pk.speed, pk.utilization, tm.alpha, tm.pair_speed(model, big_model), t, s)
        return a, b

    def term(self, job: int) -> Callable[[FloatArray], FloatArray]:
        """The job's share of the objective as a function of its speed sum: R_j, or its lateness."""
        inst = self.instance
        j = inst.jobs[job]
        cost = inst.throughput.profile(j.model).fixed_cost

        def value(total: FloatArray) -> FloatArray:
            with np.errstate(divide="ignore"):
                times = j.remaining_steps * (cost + j.batch / np.where(total > 0, total, 0.0))
            times = np.where(total > 0, times, np.inf)
            return np.maximum(0.0, inst.now + times - j.deadline) if inst.objective == "deadline" else times

        return value

    def combine(self, a: FloatArray, b: FloatArray) -> FloatArray:
        """Sum of terms for JCT (eq. 1, divided by the job count at the end), max otherwise."""
        return a + b if self.instance.objective == "jct" else np.maximum(a, b)

    def finish(self, combined: FloatArray) -> FloatArray:
        return combined / len(self.instance.jobs) if self.instance.objective == "jct" else combined


def layout(instance: CalibrationInstance) -> Layout:
    big = instance.j_max()
    partners = instance.partners()
    shared, solo = [], []
    for w, gpu in enumerate(instance.jobs[big].gpus):
        other = partners[(big, w)]
        if other is None:
            solo.append(w)
        else:
            shared.append(SharedGpu(gpu, other[0], other[1], w))
    return Layout(instance, big, tuple(shared), tuple(solo))


def levels(granularity: float) -> FloatArray:
    """The LGRR grid 100, 100 - g, ..., >= 0 (section 4.1)."""
    return np.asarray(FULL - granularity * np.arange(int(FULL // granularity + 1e-9) + 1), dtype=float)
