"""The search-cost model of GIMBAL section 7.4, and the objective a search pays for.

Each iteration of Algorithm 1 switches a mechanism and then collects runtime information.
Section 7.4 measures 9 s per LISS iteration and 39 s per LGRR iteration on average (Fig. 14),
of which 3.6 s is the LGRR context switch; only that switch is lost training time, the rest
of an iteration trains at the configuration being tried. So a search of n_LISS and n_LGRR
iterations takes 9 n_LISS + 39 n_LGRR seconds (480 s full, 250 s with early exit in Fig. 15).

:func:`objective_with_search` scores what a job set really gets: every job trains at each
tried configuration for that iteration (less the switch), then at the chosen one (one more
switch if the chosen one is not the last tried) until it finishes; the local objective of
section 5.2 is taken over these completion times. This is how a finer granularity can lose
(Fig. 13 (b)): more iterations at worse configurations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from packgap.calibration import CalibrationInstance
from packgap.calibration.objectives import instance_objective
from packgap.heuristics.calibration.state import Calibration


@dataclass(frozen=True)
class CostModel:
    """Seconds per iteration of each mechanism and per LGRR switch (section 7.4, Fig. 14)."""

    liss_iteration_s: float = 9.0
    lgrr_iteration_s: float = 39.0
    lgrr_switch_s: float = 3.6

    def duration(self, mechanism: str) -> float:
        return self.lgrr_iteration_s if mechanism == "lgrr" else self.liss_iteration_s

    def switch(self, mechanism: str) -> float:
        return self.lgrr_switch_s if mechanism == "lgrr" else 0.0


@dataclass(frozen=True)
class Step:
    """One iteration of a search: the mechanism switched and the configuration it produced."""

    mechanism: str
    calibration: Calibration
    objective: float


def search_time(steps: Sequence[Step], cost: CostModel) -> float:
    return sum(cost.duration(s.mechanism) for s in steps)


def completions_with_search(
    instance: CalibrationInstance, steps: Sequence[Step], final: Calibration, cost: CostModel
) -> list[float]:
    """Every job's time to finish (s from now) when it trains through the search, then at ``final``."""
    remaining = [float(job.remaining_steps) for job in instance.jobs]
    finish: list[float | None] = [None] * len(remaining)
    clock = 0.0

    def run(calibration: Calibration, pause: float, length: float | None) -> None:
        step_s = [t / job.remaining_steps for t, job in zip(calibration.times(instance), instance.jobs, strict=True)]
        for j, left in enumerate(remaining):
            if finish[j] is not None:
                continue
            need = left * step_s[j]
            if length is None or need <= length - pause:
                finish[j] = clock + pause + need
            else:
                remaining[j] = left - (length - pause) / step_s[j]

    for s in steps:
        run(s.calibration, cost.switch(s.mechanism), cost.duration(s.mechanism))
        clock += cost.duration(s.mechanism)
    moved = bool(steps) and steps[-1].calibration.shares != final.shares
    run(final, cost.lgrr_switch_s if moved else 0.0, None)
    return [f for f in finish if f is not None]


def objective_with_search(
    instance: CalibrationInstance, steps: Sequence[Step], final: Calibration, cost: CostModel
) -> float:
    """The instance's local objective over completion times that include the search."""
    return instance_objective(instance, completions_with_search(instance, steps, final, cost))
