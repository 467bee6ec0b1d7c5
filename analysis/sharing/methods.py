"""Methods of the ``sharing`` family: SJF-BSBF and its baselines simulated over a whole
workload, the exact branch and bound, the time-indexed relaxations and the cheap bound.

Exact results and preemption: the branch and bound proves the optimum over non-preemptive
schedules (the paper's model, eq. 10); Tiresias preempts and may go below it. So every exact
method reports as its bound a value that holds for preemptive schedules too (the cheap
bound of :mod:`packgap.models.sharing.bound`, the rate LP's of :mod:`packgap.models.sharing.rate_lp`
(exact-bb), or the MILP relaxation's), and the non-preemptive
optimum goes into the message and into exact-bb's ``class_bound`` (or, when the search stops
early, its own bound on it: the least bound over the nodes it left open) and the status comes
from that bound. ``class-bound`` holds for non-preemptive schedules only too
(:mod:`packgap.models.sharing.run_lp`): both rows carry their bound as ``class_bound`` with scope
"non-preemptive", so ``compare`` holds FIFO, SJF, SJF-FFS and SJF-BSBF to it and puts it into
their class gap, never into Tiresias'.
"""

from __future__ import annotations

from packgap.analysis.method import LP_SOLVERS, Deferred, Method
from packgap.errors import PackgapError

#: Where the methods run (:class:`~packgap.analysis.method.Deferred`: imported at the first run).
RUNS = "packgap.analysis.sharing.runs"


#: Tiresias's default queue thresholds as a parameter value: the simulator's three queues
#: (:data:`packgap.heuristics.sharing.tiresias.DEFAULT_THRESHOLDS`, spelled here so that
#: declaring the methods imports no NumPy).
TIRESIAS_THRESHOLDS = "3250,7200"


def parse_thresholds(text: str) -> tuple[float, ...]:
    """``"3250,7200"`` -> (3250.0, 7200.0): Tiresias's queue thresholds in GPU-seconds."""
    try:
        values = tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise PackgapError(f"thresholds: expected comma-separated GPU-seconds, got {text!r}") from None
    if any(v <= 0 for v in values):
        raise PackgapError(f"thresholds must be > 0 GPU-seconds, got {text!r}")
    return values


#: The policy classes of :attr:`~packgap.result.SolveResult.scope`: exact-bb's optimum holds
#: over non-preemptive schedules (FIFO, SJF, SJF-FFS and SJF-BSBF are in that class; Tiresias
#: preempts), or, with ``every_batch`` False, over those giving each job the largest fitting
#: sub-batch of Algorithm 2's ladder.
NON_PREEMPTIVE_CLASS = "non-preemptive"
LARGEST_SUB_BATCH = "non-preemptive, largest fitting sub-batch"


METHODS: tuple[Method, ...] = (
    Method(
        "sharing",
        "fifo",
        "FIFO, exclusive GPUs (section VI-A 1)",
        Deferred(f"{RUNS}:run_heuristic", ("fifo",)),
        defaults={"backfill": False},
    ),
    Method(
        "sharing",
        "sjf",
        "shortest job first, exclusive GPUs (VI-A 2)",
        Deferred(f"{RUNS}:run_heuristic", ("sjf",)),
        defaults={"backfill": True},
    ),
    Method(
        "sharing",
        "tiresias",
        "Tiresias discretised 2D-LAS, preemptive (VI-A 3)",
        Deferred(f"{RUNS}:run_tiresias"),
        defaults={"thresholds": TIRESIAS_THRESHOLDS, "queue_order": "released", "resume_overhead_s": 0.0},
    ),
    Method(
        "sharing", "sjf-ffs", "SJF with first-fit sharing (VI-A 4)", Deferred(f"{RUNS}:run_heuristic", ("sjf-ffs",))
    ),
    Method(
        "sharing",
        "sjf-bsbf",
        "SJF-BSBF: Algorithms 1-2 with Theorem 1 (section V)",
        Deferred(f"{RUNS}:run_heuristic", ("sjf-bsbf",)),
        defaults={
            "free_gpus_first": False,
            "order": "L_k",
            "accumulate": True,
            "sign_test": False,
            "share_flag": True,
            "wait_batch": "candidate",
        },
    ),
    Method(
        "sharing",
        "bound",
        "cheap valid bound (solo times; SRPT on pooled capacity) beside the best heuristic",
        Deferred(f"{RUNS}:run_bound"),
        exact=True,
    ),
    Method(
        "sharing",
        "bound-lp",
        "rate LP bound (per-slot GPU capacity, sharing priced per model pair by xi; weak-duality "
        "certified; valid with preemption) beside the best heuristic",
        Deferred(f"{RUNS}:run_lp_bound"),
        exact=True,
        defaults={"slots": 60},
        solvers=LP_SOLVERS,
    ),
    Method(
        "sharing",
        "class-bound",
        "class bound: the rate LP with each job's run interval (start and end slot), certified by weak "
        "duality, never below exact-bb's root node bound with the optima of blocks of up to `blocks` jobs "
        "(up to 12 jobs; below 2: none); valid for every non-preemptive schedule (FIFO, SJF, SJF-FFS, "
        "SJF-BSBF), not for Tiresias; beside the best heuristic (slots 0: 60 up to 50 jobs, 24 beyond)",
        Deferred(f"{RUNS}:run_class_bound"),
        exact=True,
        defaults={"slots": 0, "blocks": 4},
    ),
    Method(
        "sharing",
        "exact-bb",
        "event-driven branch and bound: non-preemptive optimum of small instances (every_batch False: "
        "each job at the largest sub-batch that fits, faster)",
        Deferred(f"{RUNS}:run_branch_and_bound"),
        exact=True,
        defaults={"max_nodes": 5_000_000, "every_batch": True},
        solvers=LP_SOLVERS,
    ),
    Method(
        "sharing",
        "exact-milp",
        "time-indexed relaxation (HiGHS): valid bound + replayed schedule",
        Deferred(f"{RUNS}:run_relaxation", ("highs",)),
        exact=True,
        defaults={"slots": 40},
        solvers=LP_SOLVERS,
    ),
    Method(
        "sharing",
        "exact-cpsat",
        "time-indexed relaxation (CP-SAT, rounded to relax): valid bound + replayed schedule",
        Deferred(f"{RUNS}:run_relaxation", ("cpsat",)),
        exact=True,
        defaults={"slots": 40},
    ),
)
