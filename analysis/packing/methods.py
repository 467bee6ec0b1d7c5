"""Methods of the ``packing`` family: CUCKOO's and Muri's packing + planning pipelines.

Each method is ``packer+planner`` (``packgap.heuristics.packing.pipeline``): packer ``dab`` (CUCKOO,
eq. 12), ``blossom`` (Muri as CUCKOO reads it: efficiency only, Muri-P, pairs), ``muri`` (Muri
as released: used-ratio weights, ``multi_resource=4``, groups of up to 4) or ``none``, then
planner ``mchp`` (CUCKOO, eq. 13-14), ``fifo`` or ``edf`` (section 4.5 baselines).
``estimator = "auto"`` lets the packer pick its own interleaving model (AM for DAB and none,
Muri-P for Blossom, Muri's released model for muri).

``homogeneous_as = "RTX4090"`` makes packing and planning blind to heterogeneity
(CUCKOO-Homo of Table 14 with ``dab+mchp``).

The exact models' class of solutions is groups of at most two jobs (CUCKOO's pairs): their
optima and bounds hold there, the pair packers' answers warm-start them, and a ``muri``
answer with groups of three or four lies outside it.

``packer+exact-plan`` (pair packers) keeps the packer's groups and plans them exactly (CP-SAT, warm-started
from the best of the packer's heuristic plans and never worse than it): against ``exact-*``
and the ``packer+planner`` rows it splits a pipeline's gap into the part the packing loses
and the part the planning loses.

``exact-ti`` (:mod:`packgap.analysis.packing.ti`) is the strong joint model: the adaptive time-indexed
LP with safe dual bounds, LP rounding and a CP-SAT polish. ``exact-cpsat`` rounds its data in
the relaxing direction (its bound is a certificate on any data) and re-times its answer;
``exact-milp`` is the tiny big-M cross-check, refused when its time limit cannot even build
it. Each reports the higher of its own bound and the closed-form bound of
:mod:`packgap.models.packing.bounds`.
"""

from __future__ import annotations

from dataclasses import asdict

from packgap.analysis.method import DEFAULT_EXACT_TIME_LIMIT, LP_SOLVERS, Deferred, Method
from packgap.analysis.packing.ti.settings import TiSettings
from packgap.heuristics.packing.stages import (
    PACKER_STAGES,
    PACKERS,
    PAIR_PACKERS,
    PLANNER_STAGES,
    PLANNERS,
    pipeline_defaults,
)

#: Where the methods run (:class:`~packgap.analysis.method.Deferred`: imported at the first run).
RUNS = "packgap.analysis.packing.runs"

PIPELINES: tuple[Method, ...] = tuple(
    Method(
        "packing",
        f"{packer}+{planner}",
        f"{PACKER_STAGES[packer].description}, then {PLANNER_STAGES[planner].description}",
        Deferred(f"{RUNS}:run_pipeline_method", (packer, planner)),
        defaults=pipeline_defaults(packer, planner),
    )
    for packer in PACKERS
    for planner in PLANNERS
)

#: Every registered pipeline, e.g. ``dab+mchp`` (CUCKOO) and ``blossom+mchp`` (Muri packing).
PIPELINE_NAMES: tuple[str, ...] = tuple(m.name for m in PIPELINES)

#: Exact planning (CP-SAT) of each packer's groups: the packing/planning decomposition.
EXACT_PLANNING: tuple[Method, ...] = tuple(
    Method(
        "packing",
        f"{packer}+exact-plan",
        f"{PACKER_STAGES[packer].description}, then the exact GPU type and start of its groups (CP-SAT)",
        Deferred(f"{RUNS}:run_exact_plan", (packer,)),
        defaults=pipeline_defaults(packer, None),
        # No bound to prove, but a CP-SAT search: unlimited, it ran for hours at 20 jobs.
        default_time_limit=DEFAULT_EXACT_TIME_LIMIT,
    )
    for packer in PAIR_PACKERS
)

METHODS: tuple[Method, ...] = (
    *PIPELINES,
    *EXACT_PLANNING,
    Method(
        "packing",
        "exact-ti",
        "joint time-indexed LP (highspy): safe dual bounds, adaptive periods, LP rounding, CP-SAT polish",
        Deferred(f"{RUNS}:run_exact_ti"),
        exact=True,
        defaults=asdict(TiSettings()),
        solvers=LP_SOLVERS,
    ),
    Method(
        "packing",
        "exact-milp",
        "tiny cross-check: big-M pairing + GPU type + start + order MILP (Pyomo + HiGHS), one GPU demand",
        Deferred(f"{RUNS}:run_exact_milp"),
        exact=True,
        solvers=LP_SOLVERS,
    ),
    Method(
        "packing",
        "exact-cpsat",
        "joint pairing + GPU type + start CP-SAT, cumulative per GPU type, relaxing rounding",
        Deferred(f"{RUNS}:run_exact_cpsat"),
        exact=True,
        defaults={"hint": "best", "rounding": "relax", "resolution": 0.0},
    ),
)

BY_NAME = {m.name: m for m in METHODS}
