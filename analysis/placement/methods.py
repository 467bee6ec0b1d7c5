"""Methods of the ``placement`` family: PAL's policies, its baselines and two exact models.

The heuristic methods are the policies of :data:`packgap.heuristics.placement.POLICIES`, with the
parameters of their signatures, declared here as data so that the CLI starts without importing
them (issue 20.5; ``tests/analysis/test_declared_as_data.py`` checks the two agree). Every
method places one scheduling round. Sticky and non-sticky variants of a baseline make the same
choice within a round (``packgap.heuristics.placement.baselines``); they differ in the
round-based simulator, where sticky jobs keep their GPUs.
"""

from __future__ import annotations

from typing import Any

from packgap.analysis.method import LP_SOLVERS, Deferred, Method

#: Where the methods run (:class:`~packgap.analysis.method.Deferred`: imported at the first run).
RUNS = "packgap.analysis.placement.runs"
#: Parameters of PM-First and PAL besides their binning (``two_sided_outliers``, ``artifact_bins``).
BINNING: dict[str, Any] = {"two_sided_outliers": True, "artifact_bins": False}
PAL_DEFAULTS: dict[str, Any] = {"traversal": "paper", "tie_break": "gpu", "node_order": "id", **BINNING}
#: Each policy of :data:`packgap.heuristics.placement.POLICIES`: name, description, parameters.
POLICY_METHODS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "pm-first",
        "PAL PM-First: class-sorted queue prefix, best binned PM-scores first (Alg. 1, Fig. 4)",
        {"tie_break": "gpu", **BINNING},
    ),
    ("pal", "PAL: L x V matrix traversal for 2..node-size GPU jobs, PM-First otherwise (Alg. 2)", PAL_DEFAULTS),
    ("packed-sticky", "Tiresias: packed placement (fewest nodes), sticky across rounds", {}),
    ("packed-non-sticky", "Gandiva: packed placement (fewest nodes), re-placed every round", {}),
    ("random-sticky", "random subset of the free GPUs (seeded), sticky across rounds", {}),
    ("random-non-sticky", "random subset of the free GPUs (seeded), re-placed every round", {}),
)

METHODS: tuple[Method, ...] = (
    *(
        Method("placement", name, description, Deferred(f"{RUNS}:run_policy", (name,)), defaults=defaults)
        for name, description, defaults in POLICY_METHODS
    ),
    Method(
        "placement",
        "pal+blocks",
        "PAL, then each job type's GPUs re-sorted into score-ordered blocks (never worse than PAL)",
        Deferred(f"{RUNS}:run_pal_blocks"),
        defaults=PAL_DEFAULTS,
    ),
    Method(
        "placement",
        "exact-blocks",
        "job types x score-ordered blocks: Lagrangian bound, repaired placements, pruned MILP (highspy)",
        Deferred(f"{RUNS}:run_exact_blocks"),
        exact=True,
        defaults={"dual_share": 0.5, "max_columns": 20_000, "dual_steps": 5000},
        solvers=LP_SOLVERS,
    ),
    Method(
        "placement",
        "exact-milp",
        "per-round MILP, one L x V cell per job (Pyomo + HiGHS)",
        Deferred(f"{RUNS}:run_exact_milp"),
        exact=True,
        defaults={"prune": True},
        solvers=LP_SOLVERS,
    ),
    Method(
        "placement",
        "exact-cpsat",
        "per-round CP-SAT model, one L x V cell per job, costs floored to `resolution`",
        Deferred(f"{RUNS}:run_exact_cpsat"),
        exact=True,
        defaults={"resolution": 1e-6, "prune": True},
    ),
)

BY_NAME = {m.name: m for m in METHODS}
