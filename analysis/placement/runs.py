"""How the ``placement`` methods run (declared in :mod:`packgap.analysis.placement.methods`),
and the exact per-round policy of the simulator."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from packgap.analysis.method import MethodOutput, RunContext
from packgap.analysis.placement.methods import BY_NAME
from packgap.errors import PackgapError, TimeLimitReached, UnknownNameError
from packgap.heuristics.placement import POLICIES, pal, pm_first
from packgap.heuristics.placement.blocks import resort_blocks
from packgap.models.placement import cpsat as cp_placement
from packgap.models.placement.cells import RoundCells, round_cells
from packgap.placement import FAMILY, PlacementInstance, PlacementSolution
from packgap.placement.simulator import Place
from packgap.result import Status
from packgap.solvers.cpsat import solve_cpsat
from packgap.solvers.outcome import MIN_SOLVE_S, SolveOptions
from packgap.solvers.pyomo_models import solve_pyomo


def _cells_then(
    solve: Callable[[PlacementInstance, RunContext, RoundCells], MethodOutput],
) -> Callable[[PlacementInstance, RunContext], MethodOutput]:
    """Build the round's cells and run ``solve``; when the time limit stops the work or leaves
    the solver nothing (or the solver stops without a placement), the best heuristic placement
    finished in time with the cheapest-cell bound, status timeout.

    PAL, PM-First and the cells run under the time limit too (the cells took 140 s on 2,048
    GPUs under a 1 s limit): what finished before the deadline is the answer; only when
    nothing did, PAL runs to its end after it. The bound: every placement's evaluated cost is
    the sum of its jobs' cells' costs (module docstring of ``packgap.models.placement.cells``),
    at least each job's cheapest cell, which pruning always keeps; dropping the GPU capacities
    leaves exactly that sum."""

    def run(instance: PlacementInstance, ctx: RunContext) -> MethodOutput:
        if not instance.jobs:
            return MethodOutput(PlacementSolution({}), Status.OPTIMAL, bound=0.0, internal_objective=0.0)
        placed: list[tuple[float, PlacementSolution]] = []
        rc = None
        try:
            with ctx.limited("placing by PAL and PM-First"):
                for place in (pal, pm_first):
                    solution = place(instance, 0)
                    placed.append((FAMILY.evaluate(instance, solution).objective, solution))
                rc = round_cells(instance, min(p[0] for p in placed) if ctx.params["prune"] else None)
            output = solve(instance, ctx, rc)
        except TimeLimitReached as exc:
            return _heuristic_answer(instance, placed, rc, str(exc))
        if output.solution is None and output.status == Status.TIMEOUT:
            return _heuristic_answer(instance, placed, rc, output.message, output.bound)
        return output

    return run


def _heuristic_answer(
    instance: PlacementInstance,
    placed: list[tuple[float, PlacementSolution]],
    rc: RoundCells | None,
    why: str,
    solver_bound: float | None = None,
) -> MethodOutput:
    """:func:`_cells_then`'s timeout: the best of the placements in ``placed`` and the better
    of the cheapest-cell bound (once the cells exist) and ``solver_bound``."""
    bound = None if rc is None or not all(rc.cells) else sum(min(c.cost for c in cells) for cells in rc.cells)
    bounded = "no bound" if bound is None else "bound = each job's cheapest cell"
    if solver_bound is not None and (bound is None or solver_bound > bound):
        bound, bounded = solver_bound, "bound = the solver's"
    answer = "best of PAL and PM-First finished"
    if not placed:
        # A timeout always carries an answer (issue 17, item 3).
        solution = pal(instance, 0)
        placed.append((FAMILY.evaluate(instance, solution).objective, solution))
        answer = "PAL, run after the deadline (no placement had finished)"
    message = f"{why}; placement = {answer}, {bounded}"
    return MethodOutput(min(placed, key=lambda p: p[0])[1], Status.TIMEOUT, bound, message=message)


def _exact_milp(instance: PlacementInstance, ctx: RunContext, rc: RoundCells) -> MethodOutput:
    from packgap.models.placement import milp as milp_placement

    with ctx.building():
        model = milp_placement.build_milp(instance, rc)
    ctx.built()
    outcome = solve_pyomo(model, ctx.solver_options())
    solution = None
    if outcome.has_solution:
        solution = PlacementSolution(milp_placement.extract(model, rc)[0])
    return MethodOutput(
        solution,
        outcome.status,
        outcome.bound,
        outcome.solver,
        outcome.version,
        outcome.message,
        internal_objective=outcome.objective,
    )


def _exact_cpsat(instance: PlacementInstance, ctx: RunContext, rc: RoundCells) -> MethodOutput:
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
    own = None if outcome.objective is None else outcome.objective * cp.resolution
    return MethodOutput(
        solution, status, bound, outcome.solver, outcome.version, f"{outcome.message}; {note}", internal_objective=own
    )


#: The per-round models over the round's cells, with the heuristic answer when time runs out.
run_exact_milp = _cells_then(_exact_milp)
run_exact_cpsat = _cells_then(_exact_cpsat)


def run_exact_blocks(instance: PlacementInstance, ctx: RunContext) -> MethodOutput:
    """Lagrangian bound and repairs from the better of pal+blocks and, on rounds small next to
    their cluster, ``cheapest_first`` (``packgap.analysis.placement.exact_blocks.greedy``),
    then the pruned block-path MILP when it is small enough
    (``packgap.analysis.placement.exact_blocks.search``)."""
    if not instance.jobs:
        return MethodOutput(PlacementSolution({}), Status.OPTIMAL, bound=0.0, internal_objective=0.0)
    from packgap.analysis.placement.exact_blocks.greedy import affordable, cheapest_first
    from packgap.analysis.placement.exact_blocks.search import dual_search, pruned_model, resume, settle
    from packgap.models.placement.block_paths import start_values
    from packgap.solvers.catalogue import version
    from packgap.solvers.matrix import solve_mip

    start = resort_blocks(instance, pal(instance))
    if affordable(instance):
        start = min(start, cheapest_first(instance), key=lambda s: FAMILY.evaluate(instance, s).objective)
    left = ctx.time_left()
    share = None if left is None else ctx.params["dual_share"] * left
    steps = ctx.params["dual_steps"]
    found = dual_search(instance, start, share, gap=ctx.options.mip_gap, steps=steps)
    model = pruned_model(found, ctx.options.mip_gap, ctx.params["max_columns"])
    if model is None and not found.within(ctx.options.mip_gap):
        found = resume(found, ctx.time_left(), gap=ctx.options.mip_gap, steps=steps)
    ctx.built()
    left = ctx.time_left()
    starved = left is not None and left < MIN_SOLVE_S
    mip = None
    if model is not None and not starved:
        mip = solve_mip(model.mip, ctx.solver_options(), start_values(model, found.solution))
    solution, status, bound, note = settle(found, model, mip, starved)
    solver = ctx.options.solver
    return MethodOutput(solution, status, bound, f"packgap+{solver}", version(solver), note)


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
