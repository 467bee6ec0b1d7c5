"""Methods of the ``packing`` family: CUCKOO's and Muri's packing + planning pipelines.

Each method is ``packer+planner`` (``heuristics.packing.pipeline``): packer ``dab`` (CUCKOO,
eq. 12), ``blossom`` (Muri, efficiency only) or ``none``, then planner ``mchp`` (CUCKOO,
eq. 13-14), ``fifo`` or ``edf`` (section 4.5 baselines). ``estimator = "auto"`` lets the
packer pick its own interleaving model (AM for DAB and none, Muri-P for Blossom).

``homogeneous_as = "RTX4090"`` makes packing and planning blind to heterogeneity
(CUCKOO-Homo of Table 14 with ``dab+mchp``).

``packer+exact-plan`` keeps the packer's groups and plans them exactly (CP-SAT): against
``exact-*`` and the ``packer+planner`` rows it splits a pipeline's gap into the part the
packing loses and the part the planning loses.

``exact-milp`` and ``exact-cpsat`` report the higher of their solver's bound and the
closed-form relaxation bound of :mod:`models.packing.bounds`.
"""

from __future__ import annotations

from typing import Any

from analysis.method import Method, MethodOutput, RunContext
from heuristics.packing.pipeline import (
    PACKER_STAGES,
    PACKERS,
    PLANNER_STAGES,
    PLANNERS,
    Packer,
    PipelineOptions,
    Planner,
    packed_batches,
    pipeline_defaults,
    run_pipeline,
)
from models.packing import cpsat as cp_packing
from models.packing.bounds import lower_bound
from models.packing.data import place
from packgap.errors import UnknownNameError
from packgap.packing import FAMILY, PackingInstance, PackingSolution
from packgap.packing.instance import INTERLEAVINGS
from packgap.result import Status
from solvers.cpsat import solve_cpsat
from solvers.highs import solve_pyomo


def pipeline_options(params: dict[str, Any]) -> PipelineOptions:
    estimator = params["estimator"]
    if estimator != "auto" and estimator not in INTERLEAVINGS:
        raise UnknownNameError("estimator", estimator, ["auto", *INTERLEAVINGS])
    given = {k: v for k, v in params.items() if k != "estimator"}
    return PipelineOptions(estimator=None if estimator == "auto" else estimator, **given)


def _runner(packer: Packer, planner: Planner) -> Any:
    def run(instance: PackingInstance, ctx: RunContext) -> MethodOutput:
        solution = run_pipeline(instance, packer, planner, pipeline_options(dict(ctx.params)))
        return MethodOutput(solution, Status.FEASIBLE)

    return run


def _best_bound(instance: PackingInstance, solver_bound: float | None) -> float:
    """The solver's bound or the closed-form relaxation bound, whichever is higher."""
    floor = lower_bound(instance).objective
    return floor if solver_bound is None else max(floor, solver_bound)


def run_exact_milp(instance: PackingInstance, ctx: RunContext) -> MethodOutput:
    from models.packing import milp as milp_packing

    model, cands = milp_packing.build_milp(instance)
    ctx.built()
    outcome = solve_pyomo(model, ctx.solver_options())
    solution = None
    if outcome.has_solution:
        solution = place(instance, cands, milp_packing.extract(model, milp_packing.machines(instance)))
    return MethodOutput(
        solution, outcome.status, _best_bound(instance, outcome.bound), outcome.solver, outcome.version, outcome.message
    )


def _hint(instance: PackingInstance, name: str) -> PackingSolution | None:
    """A pipeline's answer as CP-SAT's warm start: one named, the best of all, or none."""
    if name == "none":
        return None
    if name == "best":
        answers = [run_pipeline(instance, p, q, PipelineOptions()) for p in PACKERS for q in PLANNERS]
        return min(answers, key=lambda s: FAMILY.evaluate(instance, s).objective)
    packer, _, planner = name.partition("+")
    if packer not in PACKERS or planner not in PLANNERS:
        raise UnknownNameError("hint", name, [*_NAMES, "best", "none"])
    return run_pipeline(instance, packer, planner, PipelineOptions())  # type: ignore[arg-type]


def run_exact_cpsat(instance: PackingInstance, ctx: RunContext) -> MethodOutput:
    cp = cp_packing.build_cpsat(instance, _hint(instance, ctx.params["hint"]))
    ctx.built()
    outcome, solver = solve_cpsat(cp.model, ctx.solver_options())
    solution = place(instance, cp.cands, cp_packing.extract(cp, solver)) if outcome.has_solution else None
    status, bound, message = outcome.status, outcome.bound, outcome.message
    if bound is not None:
        bound = bound * cp.objective_scale + cp.constant
    if not cp.exact:
        # Rounded data: the answer is feasible, the solver's bound bounds another problem.
        status = Status.FEASIBLE if status == Status.OPTIMAL else status
        bound, message = None, f"{message}; data off the 1 us grid, rounded (no proof)"
    return MethodOutput(solution, status, _best_bound(instance, bound), outcome.solver, outcome.version, message)


def _runner_exact_plan(packer: Packer) -> Any:
    def run(instance: PackingInstance, ctx: RunContext) -> MethodOutput:
        options = pipeline_options(dict(ctx.params))
        groups = [g for _, batch in packed_batches(instance, packer, options) for g in batch]
        cp = cp_packing.build_cpsat(instance, None, groups)
        ctx.built()
        outcome, solver = solve_cpsat(cp.model, ctx.solver_options())
        solution = place(instance, cp.cands, cp_packing.extract(cp, solver)) if outcome.has_solution else None
        # Optimal for these groups only: no bound on the joint problem.
        return MethodOutput(
            solution,
            Status.FEASIBLE if solution else outcome.status,
            None,
            outcome.solver,
            outcome.version,
            f"planning of the {packer} groups: {outcome.message}",
        )

    return run


_NAMES = [f"{p}+{q}" for p in PACKERS for q in PLANNERS]

PIPELINES: tuple[Method, ...] = tuple(
    Method(
        "packing",
        f"{packer}+{planner}",
        f"{PACKER_STAGES[packer].description}, then {PLANNER_STAGES[planner].description}",
        _runner(packer, planner),
        defaults=pipeline_defaults(packer, planner),
    )
    for packer in PACKERS
    for planner in PLANNERS
)

#: Exact planning (CP-SAT) of each packer's groups: the packing/planning decomposition.
EXACT_PLANNING: tuple[Method, ...] = tuple(
    Method(
        "packing",
        f"{packer}+exact-plan",
        f"{PACKER_STAGES[packer].description}, then the exact GPU type and start of its groups (CP-SAT)",
        _runner_exact_plan(packer),
        defaults=pipeline_defaults(packer, None),
    )
    for packer in PACKERS
)

METHODS: tuple[Method, ...] = (
    *PIPELINES,
    *EXACT_PLANNING,
    Method(
        "packing",
        "exact-milp",
        "joint pairing + GPU type + start + order MILP (Pyomo + HiGHS), one GPU demand",
        run_exact_milp,
        exact=True,
    ),
    Method(
        "packing",
        "exact-cpsat",
        "joint pairing + GPU type + start CP-SAT, cumulative per GPU type",
        run_exact_cpsat,
        exact=True,
        defaults={"hint": "best"},
    ),
)

BY_NAME = {m.name: m for m in METHODS}
