"""How the ``placement`` methods run (declared in :mod:`packgap.analysis.placement.methods`),
and the exact per-round policy of the simulator."""

from __future__ import annotations

from dataclasses import replace

from packgap.analysis.method import MethodOutput, RunContext
from packgap.analysis.placement.methods import BY_NAME
from packgap.errors import PackgapError, UnknownNameError
from packgap.heuristics.placement import POLICIES, pal, pm_first
from packgap.heuristics.placement.blocks import resort_blocks
from packgap.models.placement import cpsat as cp_placement
from packgap.models.placement.cells import round_cells
from packgap.placement import FAMILY, PlacementInstance, PlacementSolution
from packgap.placement.simulator import Place
from packgap.result import Status
from packgap.solvers.cpsat import solve_cpsat
from packgap.solvers.highs import solve_pyomo
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions


def incumbent(instance: PlacementInstance) -> float:
    """The best evaluated objective of PAL and PM-First: the cut-off that lets the exact
    models drop cells no better placement can use (``packgap.models.placement.cells``)."""
    return min(FAMILY.evaluate(instance, place(instance, 0)).objective for place in (pal, pm_first))


def run_exact_milp(instance: PlacementInstance, ctx: RunContext) -> MethodOutput:
    if not instance.jobs:
        return MethodOutput(PlacementSolution({}), Status.OPTIMAL, bound=0.0)
    rc = round_cells(instance, incumbent(instance) if ctx.params["prune"] else None)
    from packgap.models.placement import milp as milp_placement

    with ctx.building():
        model = milp_placement.build_milp(instance, rc)
    ctx.built()
    outcome = solve_pyomo(model, ctx.solver_options())
    solution = None
    if outcome.has_solution:
        solution = PlacementSolution(milp_placement.extract(model, rc)[0])
    return MethodOutput(solution, outcome.status, outcome.bound, outcome.solver, outcome.version, outcome.message)


def run_exact_cpsat(instance: PlacementInstance, ctx: RunContext) -> MethodOutput:
    if not instance.jobs:
        return MethodOutput(PlacementSolution({}), Status.OPTIMAL, bound=0.0)
    rc = round_cells(instance, incumbent(instance) if ctx.params["prune"] else None)
    with ctx.building():
        cp = cp_placement.build_cpsat(instance, rc, ctx.params["resolution"])
    ctx.built()
    outcome, solver = solve_cpsat(cp.model, ctx.solver_options())
    solution = None
    if outcome.has_solution:
        solution = PlacementSolution(cp_placement.extract(cp, solver, rc)[0])
    bound = None if outcome.bound is None else outcome.bound * cp.resolution
    status, note = outcome.status, "costs on the grid"
    if not cp.exact:
        # The floored model's optimum may not be the true one (issue 17): only the bound is proven.
        status = Status.FEASIBLE if status == Status.OPTIMAL else status
        note = f"costs floored to {cp.resolution:g}: optimal within jobs x resolution"
    return MethodOutput(solution, status, bound, outcome.solver, outcome.version, f"{outcome.message}; {note}")


def run_exact_blocks(instance: PlacementInstance, ctx: RunContext) -> MethodOutput:
    """Lagrangian bound and repairs from pal+blocks, then the pruned block-path MILP when it
    is small enough (``packgap.analysis.placement.exact_blocks.search``)."""
    if not instance.jobs:
        return MethodOutput(PlacementSolution({}), Status.OPTIMAL, bound=0.0)
    from packgap.analysis.placement.exact_blocks.search import dual_search, pruned_model, resume, settle
    from packgap.models.placement.block_paths import start_values
    from packgap.solvers.highspy_lp import version
    from packgap.solvers.highspy_mip import solve_mip

    start = resort_blocks(instance, pal(instance))
    left = ctx.time_left()
    share = None if left is None else ctx.params["dual_share"] * left
    found = dual_search(instance, start, share, gap=ctx.options.mip_gap)
    model = pruned_model(found, ctx.options.mip_gap, ctx.params["max_columns"])
    if model is None and not found.within(ctx.options.mip_gap):
        found = resume(found, ctx.time_left(), gap=ctx.options.mip_gap)
    ctx.built()
    left = ctx.time_left()
    starved = left is not None and left < MIN_SOLVE_S
    mip = None
    if model is not None and not starved:
        mip = solve_mip(model.mip, ctx.solver_options(), start_values(model, found.solution))
    solution, status, bound, note = settle(found, model, mip, starved)
    return MethodOutput(solution, status, bound, "packgap+highs", version(), note)


def exact_policy(options: SolveOptions, backend: str = "blocks") -> Place:
    """The exact per-round placement policy for the simulator: each round's exact answer
    (block method, MILP or CP-SAT), the incumbent when ``options.time_limit`` stops it first."""
    method = BY_NAME.get(f"exact-{backend}")
    if method is None:
        raise UnknownNameError("exact backend", backend, ["blocks", "milp", "cpsat"])

    def place(instance: PlacementInstance, seed: int) -> PlacementSolution:
        ctx = RunContext(replace(options, seed=seed), method.resolve_params({}))
        output = method.run(instance, ctx)
        if output.solution is None:
            raise PackgapError(
                f"exact-{backend} found no placement for {instance.name}: {output.status} {output.message}"
            )
        solution: PlacementSolution = output.solution
        return solution

    return place


def run_policy(name: str, instance: PlacementInstance, ctx: RunContext) -> MethodOutput:
    policy = POLICIES[name].configure(instance, **ctx.params)
    return MethodOutput(policy.place(instance, ctx.options.seed), Status.FEASIBLE)


def run_pal_blocks(instance: PlacementInstance, ctx: RunContext) -> MethodOutput:
    placed = POLICIES["pal"].configure(instance, **ctx.params).place(instance, ctx.options.seed)
    return MethodOutput(resort_blocks(instance, placed), Status.FEASIBLE)
