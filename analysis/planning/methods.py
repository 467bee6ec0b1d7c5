"""Methods of the ``planning`` family: CUCKOO's MCHP, FIFO/EDF, and three exact models.

Declared as data: each runs through :mod:`packgap.analysis.planning.runs`, imported when a
method first runs, and the heuristics' defaults are their functions' keyword defaults
(checked by ``tests/analysis/test_declared_as_data.py``).
"""

from __future__ import annotations

from packgap.analysis.method import LP_SOLVERS, Deferred, Method

RUNS = "packgap.analysis.planning.runs"

METHODS: tuple[Method, ...] = (
    Method(
        "planning",
        "mchp",
        "CUCKOO MCHP: min-cost matching to (GPU type, order), eq. 13-14",
        Deferred(f"{RUNS}:run_heuristic", ("mchp",)),
        defaults={"deadline_weight": 1.0, "tie_break": "queue", "gpu_order": "slots"},
    ),
    Method(
        "planning",
        "fifo",
        "groups in queue order, each on the GPU where it finishes first",
        Deferred(f"{RUNS}:run_heuristic", ("fifo",)),
        defaults={"gpu_choice": "earliest-finish"},
    ),
    Method(
        "planning",
        "edf",
        "groups by earliest deadline, each on the GPU where it finishes first",
        Deferred(f"{RUNS}:run_heuristic", ("edf",)),
        defaults={"gpu_choice": "earliest-finish"},
    ),
    Method(
        "planning",
        "exact-flow",
        "Horn positional min-cost flow: exact sum of completion times",
        Deferred(f"{RUNS}:run_exact_flow"),
        exact=True,
        defaults={"resolution": 1e-6, "backend": "ortools"},
    ),
    Method(
        "planning",
        "exact-milp",
        "Horn positional MILP with tardiness per position, no big-M (highspy)",
        Deferred(f"{RUNS}:run_exact_milp"),
        exact=True,
        defaults={"hint": True},
        solvers=LP_SOLVERS,
    ),
    Method(
        "planning",
        "exact-cpsat",
        "CP-SAT: optional intervals, cumulative per GPU type",
        Deferred(f"{RUNS}:run_exact_cpsat"),
        exact=True,
        defaults={"horn_cut": True, "hint": True},
    ),
)
