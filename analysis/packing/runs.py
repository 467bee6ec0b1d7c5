"""How the ``packing`` methods run (declared, with the pipelines and the exact models
explained, in :mod:`packgap.analysis.packing.methods`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import packgap
from packgap.analysis.method import MethodOutput, RunContext
from packgap.analysis.packing.ti.driver import solve_ti
from packgap.analysis.packing.ti.settings import TiSettings
from packgap.errors import TimeLimitReached, UnknownNameError
from packgap.heuristics.packing.pipeline import packed_batches, run_pipeline
from packgap.heuristics.packing.stages import PAIR_PACKERS, PLANNERS, Packer, PipelineOptions, Planner
from packgap.models.packing import cpsat as cp_packing
from packgap.models.packing.bounds import lower_bound
from packgap.models.packing.data import place
from packgap.packing import FAMILY, PackingInstance, PackingSolution
from packgap.packing.instance import INTERLEAVINGS
from packgap.result import Status
from packgap.solvers.cpsat import solve_cpsat
from packgap.solvers.cpsat import version as cpsat_version
from packgap.solvers.pyomo_models import solve_pyomo


def pipeline_options(params: dict[str, Any]) -> PipelineOptions:
    estimator = params["estimator"]
    if estimator != "auto" and estimator not in INTERLEAVINGS:
        raise UnknownNameError("estimator", estimator, ["auto", *INTERLEAVINGS])
    given = {k: v for k, v in params.items() if k != "estimator"}
    return PipelineOptions(estimator=None if estimator == "auto" else estimator, **given)


def run_pipeline_method(packer: Packer, planner: Planner, instance: PackingInstance, ctx: RunContext) -> MethodOutput:
    solution = run_pipeline(instance, packer, planner, pipeline_options(dict(ctx.params)))
    return MethodOutput(solution, Status.FEASIBLE)


#: Up to this many jobs a timeout computes the closed-form bound even after the deadline
#: (0.24 s at 200 jobs on the loaded 2-core machine; 1.45 s at 500).
LATE_BOUND_JOBS = 200


@dataclass
class _Found:
    """What an exact method finished under its time limit: the pipelines' answers, each scored
    as it finished, and the closed-form bound (:func:`~packgap.models.packing.bounds.lower_bound`).
    Both cost seconds at 500 jobs (nine scores 1.5 s, the bound 1.45 s on the loaded machine):
    done after the deadline, they broke the promise (issue 31)."""

    instance: PackingInstance
    answers: list[tuple[float, PackingSolution]] = field(default_factory=list)
    floor: float | None = None

    def offer(self, answer: PackingSolution) -> PackingSolution:
        self.answers.append((FAMILY.evaluate(self.instance, answer).objective, answer))
        return answer

    def best(self) -> PackingSolution:
        return min(self.answers, key=lambda a: a[0])[1]

    def bound(self) -> None:
        self.floor = lower_bound(self.instance).objective

    def with_floor(self, solver_bound: float | None) -> float | None:
        """The solver's bound or the closed-form bound, whichever is higher (None: neither)."""
        bounds = [b for b in (self.floor, solver_bound) if b is not None]
        return max(bounds) if bounds else None

    def out_of_time(
        self, exc: TimeLimitReached, hint: PackingSolution | None = None, solver: str = "packgap", version: str = ""
    ) -> MethodOutput:
        """A timeout's answer (``hint``, else the best pipeline that finished; when none did,
        the cheapest, no packing and FIFO, run to its end after the deadline, so that a timeout
        always carries an answer: issue 17, item 3) with the closed-form bound if it was
        computed in time or the instance is small (:data:`LATE_BOUND_JOBS`)."""
        if hint is not None:
            note, answer = "the hint", hint
        elif self.answers:
            note = f"best of {len(self.answers)} pipeline(s) finished"
            answer = self.best()
        else:
            note = "none+fifo, run after the deadline (no pipeline had finished)"
            answer = run_pipeline(self.instance, "none", "fifo", PipelineOptions())
        if self.floor is None and len(self.instance.jobs) <= LATE_BOUND_JOBS:
            self.bound()
        bounded = "no bound" if self.floor is None else "bound = closed-form relaxation"
        message = f"{exc}; answer = {note}, {bounded}"
        return MethodOutput(answer, Status.TIMEOUT, self.floor, solver, version or packgap.__version__, message=message)


def run_exact_milp(instance: PackingInstance, ctx: RunContext) -> MethodOutput:
    """The big-M MILP; when the time limit cannot build it (estimated up front, or stopped while
    building) or leaves the solver nothing, :meth:`_Found.out_of_time`. The pipelines and the
    closed-form bound run under the limit. A solver stopped without an incumbent gives the best
    pipeline's answer with the solver's bound (before, a timeout without an answer: issue 33.4,
    12 jobs, 10 s)."""
    found = _Found(instance)
    try:
        with ctx.building():
            _hint(instance, "best", found)
            found.bound()
        out = _exact_milp(instance, ctx, found)
    except TimeLimitReached as exc:
        return found.out_of_time(exc)
    if out.solution is not None or not found.answers:
        return out
    note = f"the MILP found no incumbent in the limit; answer = best of {len(found.answers)} pipeline(s) finished"
    message = f"{out.message}; {note}" if out.message else note
    return replace(out, solution=found.best(), status=Status.TIMEOUT, message=message, internal_objective=None)


def _exact_milp(instance: PackingInstance, ctx: RunContext, found: _Found) -> MethodOutput:
    from packgap.models.packing import milp as milp_packing
    from packgap.models.packing.data import candidates

    with ctx.building():
        count = milp_packing.disjunctions(instance, candidates(instance))
    left = ctx.time_left()
    if left is not None and count * milp_packing.BUILD_S_PER_DISJUNCTION > left:
        raise TimeLimitReached(
            f"exact-milp is the tiny cross-check: {count} disjunctions cannot be built in {left:.3g} s"
        )
    with ctx.building():
        model, cands = milp_packing.build_milp(instance)
    ctx.built()
    outcome = solve_pyomo(model, ctx.solver_options())
    solution = None
    if outcome.has_solution:
        solution = place(instance, cands, milp_packing.extract(model, milp_packing.machines(instance)))
    # The model's objective is O(1)-scaled: one unit is worth objective_unit in the evaluator's.
    unit = milp_packing.objective_unit(instance)
    bound = None if outcome.bound is None else outcome.bound * unit
    return MethodOutput(
        solution,
        outcome.status,
        found.with_floor(bound),
        outcome.solver,
        outcome.version,
        outcome.message,
        internal_objective=None if outcome.objective is None else outcome.objective * unit,
    )


def _best(instance: PackingInstance, answers: list[PackingSolution]) -> PackingSolution:
    return min(answers, key=lambda s: FAMILY.evaluate(instance, s).objective)


def _pipelines(instance: PackingInstance) -> Iterator[PackingSolution]:
    """Every pair pipeline's answer (PAIR_PACKERS x PLANNERS, default options), one at a time:
    the exact models' warm starts lie in their class (groups of at most two)."""
    for packer in PAIR_PACKERS:
        for planner in PLANNERS:
            yield run_pipeline(instance, packer, planner, PipelineOptions())


def _hint(instance: PackingInstance, name: str, found: _Found | None = None) -> PackingSolution | None:
    """A pipeline's answer as CP-SAT's warm start: one named, the best of all, or none; each
    answer is offered to ``found`` as it finishes (what a deadline leaves). The pipelines run
    under the limit: before, exact-milp ran all nine after the deadline (500 jobs, 1.9 s under
    1 s)."""
    if name == "none":
        return None
    found = found if found is not None else _Found(instance)
    if name == "best":
        for answer in _pipelines(instance):
            found.offer(answer)
        return found.best()
    packer, _, planner = name.partition("+")
    if packer not in PAIR_PACKERS or planner not in PLANNERS:
        pipelines = [f"{p}+{q}" for p in PAIR_PACKERS for q in PLANNERS]
        raise UnknownNameError("hint", name, [*pipelines, "best", "none"])
    return found.offer(run_pipeline(instance, packer, planner, PipelineOptions()))  # type: ignore[arg-type]


def _solve_cp(
    instance: PackingInstance, ctx: RunContext, cp: cp_packing.PackingCpModel, hint: PackingSolution | None
) -> tuple[PackingSolution | None, Status, float | None, str]:
    """Solve a built model; the better of its answer and ``hint``, status and certified bound."""
    ctx.built()
    outcome, solver = solve_cpsat(cp.model, ctx.solver_options())
    answers = [cp_packing.answer(instance, cp, solver)] if outcome.has_solution else []
    answers += [hint] if hint is not None else []
    solution = _best(instance, answers) if answers else None
    status = outcome.status
    if not cp.exact:
        # Rounded data: the model's optimum is not the real one (its bound still is, relaxed).
        status = Status.FEASIBLE if status == Status.OPTIMAL else status
    note = "" if cp.exact else f"; data off the {cp.resolution:g} s grid ({cp.rounding} rounding)"
    return solution, status, cp_packing.bound(cp, outcome.bound), f"{outcome.message}{note}"


def run_exact_cpsat(instance: PackingInstance, ctx: RunContext) -> MethodOutput:
    """The CP-SAT model; when the time limit leaves the search nothing (spent building), the
    hint (a pipeline's answer, or the best of all) or else :meth:`_Found.out_of_time`, status
    timeout. The hint and the closed-form bound are computed under the limit."""
    p = ctx.params
    found = _Found(instance)
    hint = None
    try:
        with ctx.building():
            hint = _hint(instance, p["hint"], found)
            found.bound()
            cp = cp_packing.build_cpsat(instance, hint, rounding=p["rounding"], tick=p["resolution"])
        solution, status, bound, message = _solve_cp(instance, ctx, cp, hint)
    except TimeLimitReached as exc:
        return found.out_of_time(exc, hint, "cp-sat", cpsat_version())
    return MethodOutput(solution, status, found.with_floor(bound), "cp-sat", cpsat_version(), message)


def run_exact_ti(instance: PackingInstance, ctx: RunContext) -> MethodOutput:
    """The adaptive time-indexed LP, hinted with every pipeline's answer; when the time limit
    stops the pipelines or the first level's build, :meth:`_Found.out_of_time`. The pipelines
    and the closed-form bound run under the limit."""
    from packgap.solvers.catalogue import version

    found = _Found(instance)
    try:
        with ctx.limited("running the pipelines"):
            _hint(instance, "best", found)
            found.bound()
        hints = [answer for _, answer in found.answers]
        out = solve_ti(instance, hints, ctx.solver_options(), TiSettings(**ctx.params), built=ctx.built)
    except TimeLimitReached as exc:
        return found.out_of_time(exc)
    finest = out.levels[-1].period if out.levels else float("nan")
    message = f"{len(out.levels)} level(s), finest period {finest:.3g} s"
    solver = ctx.options.solver
    return MethodOutput(out.solution, out.status, out.bound, f"{solver}+cp-sat", version(solver), message)


def run_exact_plan(packer: Packer, instance: PackingInstance, ctx: RunContext) -> MethodOutput:
    options = pipeline_options(dict(ctx.params))
    groups = [g for _, batch in packed_batches(instance, packer, options) for g in batch]
    # Issue 11: warm start from the best heuristic plan of these groups; never worse.
    plans = [run_pipeline(instance, packer, planner, options) for planner in PLANNERS]
    hint = _best(instance, plans)
    try:
        with ctx.building():
            cp = cp_packing.build_cpsat(instance, hint, groups, rounding="feasible")
        solution, status, _, message = _solve_cp(instance, ctx, cp, hint)
    except TimeLimitReached as exc:
        message = f"{exc}; answer = the best heuristic plan of these groups"
        return MethodOutput(hint, Status.TIMEOUT, None, "cp-sat", cpsat_version(), message)
    # Optimal for these groups only: no bound on the joint problem.
    return MethodOutput(
        solution,
        Status.FEASIBLE if solution else status,
        None,
        "cp-sat",
        cpsat_version(),
        f"planning of the {packer} groups: {message}",
    )
