"""``packgap simulate`` on a cluster trace: round-based simulations with scheduler and placement
policy by name (run parameters, not instance fields), and the metrics of PAL's evaluation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis import plugins
from packgap.analysis.kit import SimulationTable, Tick
from packgap.analysis.placement.round_gaps import exact_gaps, gaps_document
from packgap.analysis.placement.runs import exact_policy
from packgap.errors import UnknownNameError
from packgap.heuristics.placement import POLICIES, Policy, cluster_policy
from packgap.heuristics.placement.schedulers import SCHEDULERS
from packgap.instances.placement.sim import artifact_extra_jobs
from packgap.placement import PlacementInstance, PlacementSolution
from packgap.placement.simulator import Cluster, Observer, SimJob, SimResult, simulate
from packgap.placement.trace import ClusterTrace
from packgap.solvers.outcome import SolveOptions

#: Untracked extra jobs of a blox replay: at 2 jobs/hour they keep arriving for ~2,000 hours.
EXTRA_JOBS = 4000


def run(
    cluster: Cluster,
    jobs: Sequence[SimJob],
    scheduler: str = "fifo",
    policy: str = "pal",
    *,
    round_length: float = 300.0,
    seed: int = 0,
    **policy_params: Any,
) -> SimResult:
    """Simulate ``jobs`` with scheduler ``fifo`` / ``las`` / ``srtf`` and a placement policy
    of ``packgap.heuristics.placement.POLICIES`` (PM-First / PAL options in ``policy_params``)."""
    if scheduler not in SCHEDULERS:
        raise UnknownNameError("scheduler", scheduler, list(SCHEDULERS))
    chosen = cluster_policy(policy, cluster, **policy_params)
    return simulate(
        cluster,
        jobs,
        SCHEDULERS[scheduler],
        chosen.place,
        sticky=chosen.sticky,
        round_length=round_length,
        seed=seed,
        repeats=chosen.repeats,
    )


def trace_policy(trace: ClusterTrace, placement: str, options: SolveOptions) -> Policy:
    """The placement policy under the trace's rules; ``exact`` solves every round's MILP; a
    plug-in's ``function(round, seed)`` places each round (:mod:`packgap.analysis.plugins`)."""
    if placement == "exact":
        return Policy("exact", exact_policy(options), sticky=False)
    own = plugins.policy("placement", placement)
    if own is not None:
        function = own.function

        def place(instance: PlacementInstance, seed: int) -> PlacementSolution:
            solution: PlacementSolution = plugins.as_solution("placement", function(instance, seed))
            return solution

        return Policy(placement, place, sticky=own.sticky)
    if placement not in POLICIES:
        raise UnknownNameError("placement policy", placement, [*POLICIES, "exact", *plugins.policies("placement")])
    return cluster_policy(placement, trace.cluster, artifact=trace.replay == "blox")


def simulate_trace(
    trace: ClusterTrace,
    scheduler: str,
    placement: str,
    *,
    seed: int = 0,
    options: SolveOptions | None = None,
    extras: int = EXTRA_JOBS,
    observe: Observer | None = None,
) -> SimResult:
    """Run a cluster trace; a blox replay adds the artifact's untracked extra jobs."""
    if scheduler not in SCHEDULERS:
        raise UnknownNameError("scheduler", scheduler, list(SCHEDULERS))
    policy = trace_policy(trace, placement, options or SolveOptions(time_limit=10.0))
    jobs = list(trace.jobs)
    if trace.replay == "blox":
        jobs += artifact_extra_jobs(jobs, extras)
    return simulate(
        trace.cluster,
        jobs,
        SCHEDULERS[scheduler],
        policy.place,
        sticky=policy.sticky,
        round_length=trace.round_length,
        seed=seed,
        observe=observe,
        repeats=policy.repeats,
    )


def metrics(result: SimResult) -> dict[str, float]:
    """Mean and p99 JCT, makespan, mean wait (s) and mean GPU utilisation over rounds."""
    util = result.utilisation
    return {
        "mean_jct_s": result.mean_jct,
        "p99_jct_s": result.p99_jct,
        "makespan_s": result.makespan,
        "mean_wait_s": result.mean_wait,
        "mean_utilisation": sum(util) / len(util) if util else 0.0,
        "jobs": float(len(result.jct)),
    }


def run_document(trace: ClusterTrace, result: SimResult, scheduler: str, placement: str, seed: int) -> dict[str, Any]:
    """The JSON of ``packgap simulate``: run parameters, metrics, and every tracked job."""
    submit = {j.id: j.submit_time for j in trace.jobs}
    return {
        "instance": trace.name,
        "replay": trace.replay,
        "scheduler": scheduler,
        "placement": placement,
        "seed": seed,
        "round_length_s": trace.round_length,
        "metrics": metrics(result),
        "jobs": [
            {
                "id": jid,
                "submit_s": submit[jid],
                "finish_s": result.finish[jid],
                "jct_s": result.jct[jid],
                "wait_s": result.wait[jid],
            }
            for jid in sorted(result.jct, key=lambda j: (submit[j], j))
        ],
        "utilisation": list(result.utilisation),
    }


def run_trace(
    trace: ClusterTrace,
    options: Mapping[str, Any],
    seed: int,
    time_limit: float | None,
    tick: Tick,
    *,
    solver: str = "highs",
) -> dict[str, Any]:
    """A cluster trace round by round; with ``round_gaps`` N, every N-th round also solved exactly."""
    scheduler, placement = options.get("scheduler") or "fifo", options.get("placement") or "pal"
    every = options.get("round_gaps")
    solve_options = SolveOptions(time_limit=10.0 if time_limit is None else time_limit, solver=solver)
    kept: list[tuple[PlacementInstance, PlacementSolution]] = []
    placed = [0]
    tick(f"{placement}: simulating", 0, None)

    def observe(instance: PlacementInstance, solution: PlacementSolution) -> None:
        tick(f"{placement}: placed round {instance.name}", 1, None)
        # Only the sampled rounds are kept: all 31,215 of a Summit-sized trace peaked at 1.2 GB.
        if every is not None and placed[0] % every == 0:
            kept.append((instance, solution))
        placed[0] += 1

    result = simulate_trace(trace, scheduler, placement, seed=seed, options=solve_options, observe=observe)
    document = run_document(trace, result, scheduler, placement, seed)
    if every is not None:
        tick("exact rounds", 0, len(kept))
        gaps = exact_gaps(kept, solve_options, on_done=lambda: tick("exact rounds", 1, None))
        document["round_gaps"], summary = gaps_document(gaps)
        document["metrics"] |= summary
    return document


def table(document: dict[str, Any]) -> SimulationTable:
    title = f"{document['instance']}: {document['scheduler']} + {document['placement']} ({document['replay']})"
    return SimulationTable(title, ("metric", "value"), tuple(document["metrics"].items()))
