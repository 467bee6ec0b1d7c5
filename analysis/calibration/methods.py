"""Methods of the ``calibration`` family: GIMBAL (Algorithm 1), its baselines, and three exact searches.

Declared as data; they run through :mod:`packgap.analysis.calibration.runs`, imported when a
method first runs.
"""

from __future__ import annotations

from typing import Any

from packgap.analysis.method import Deferred, Method

#: Where the methods run (:class:`~packgap.analysis.method.Deferred`: imported at the first run).
RUNS = "packgap.analysis.calibration.runs"

GIMBAL_DEFAULTS: dict[str, Any] = {
    "granularity": 0.0,
    "early_exit": True,
    "patience": 3,
    "priority": "text",
    "subset_priority": "max",
    "straggler_tol": 0.02,
    "liss_iteration_s": 9.0,
    "lgrr_iteration_s": 39.0,
    "lgrr_switch_s": 3.6,
}

METHODS: tuple[Method, ...] = (
    Method(
        "calibration",
        "gimbal",
        "GIMBAL Algorithm 1: greedy squeeze/swell with LGRR + LISS and early exit (granularity 0 = instance's)",
        Deferred(f"{RUNS}:run_gimbal"),
        defaults=GIMBAL_DEFAULTS,
    ),
    Method(
        "calibration",
        "gimbal-full",
        "GIMBAL Algorithm 1 without early exit (section 7.4, Fig. 15)",
        Deferred(f"{RUNS}:run_gimbal"),
        defaults={**GIMBAL_DEFAULTS, "early_exit": False},
    ),
    Method(
        "calibration",
        "free-competition",
        "unequal packing without GIMBAL: every share 100 %, batches split evenly",
        Deferred(f"{RUNS}:run_fixed", ("free-competition",)),
    ),
    Method(
        "calibration",
        "liss-only",
        "free competition with LISS on every job (no LGRR)",
        Deferred(f"{RUNS}:run_fixed", ("liss-only",)),
    ),
    Method(
        "calibration",
        "exact-grid",
        "implicit enumeration of the whole LGRR grid (branch and bound), exact LISS split at every point",
        Deferred(f"{RUNS}:run_exact_grid"),
        exact=True,
        defaults={"max_points": 20_000_000},
    ),
    Method(
        "calibration",
        "exact-frontier",
        "exact grid optimum by merging per-GPU / per-job Pareto frontiers of speed sums",
        Deferred(f"{RUNS}:run_exact_frontier"),
        exact=True,
    ),
    Method(
        "calibration",
        "continuous-bound",
        "lower bound over real-valued shares (cell relaxation + frontier merge); solution = grid optimum",
        Deferred(f"{RUNS}:run_continuous_bound"),
        exact=True,
        defaults={"width": 0.5, "cap": 400},
    ),
)
