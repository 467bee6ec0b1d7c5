"""Beside PAL's Fig. 18: a whole Summit-sized trace placed by PAL, sampled rounds certified.

PAL's motivation is a Summit-sized machine (27,648 GPUs, section III-B); Fig. 18 times single
rounds. Here a whole generated Synergy trace (``packgap.instances.placement.synergy``: 20,000
jobs at 1,000 jobs/hour on 27,648 GPUs, FIFO) is simulated with PAL, and every
:data:`EVERY`-th round that placed a job is solved by ``exact-blocks``, stopped by work (ascent
steps, HiGHS nodes) so the rows are the same on every run; the simulation's seconds are
measured. Quick: 2,000 jobs at 150 jobs/hour on 4,096 GPUs (the same jobs per GPU-hour).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from packgap.analysis.kit import PaperValue, Tick
from packgap.result import certified_gap, primal_gap

#: Every how many placed rounds one is solved exactly (the issue's ``--round-gaps``).
EVERY = 1500
#: Work limits of ``exact-blocks`` per sampled round (no wall clock binds: the backstop is far).
#: A step costs 0.35 s of CPU on a 74-job round of 27,648 GPUs (measured).
STEPS, NODES, BACKSTOP_S = 25, 100, 3600.0


def _sizes(quick: bool) -> tuple[int, int, float]:
    """Jobs, GPUs and jobs per hour."""
    return (2_000, 4_096, 150.0) if quick else (20_000, 27_648, 1_000.0)


def summit_size(quick: bool) -> dict[str, Any]:
    jobs, gpus, rate = _sizes(quick)
    return {
        "jobs": jobs,
        "GPUs": gpus,
        "jobs/hour": rate,
        "every": EVERY,
        "exact-blocks": f"{STEPS} ascent steps, {NODES} MILP nodes",
    }


def summit(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    return summit_rows(*_sizes(quick), EVERY, tick)


def summit_rows(jobs: int, gpus: int, rate: float, every: int, tick: Tick) -> list[dict[str, Any]]:
    """One row: a ``jobs``-job Synergy trace at ``rate`` jobs/hour on ``gpus`` GPUs under FIFO
    and PAL, its metrics and, for every ``every``-th round that placed a job, PAL's objective,
    the exact one, the proven bound and the status."""
    from packgap.analysis.placement.round_gaps import exact_gaps
    from packgap.analysis.placement.simulate import simulate_trace
    from packgap.instances.placement.synergy import synergy_cluster_trace
    from packgap.placement import FAMILY, PlacementInstance, PlacementSolution
    from packgap.solvers.outcome import SolveOptions

    trace = synergy_cluster_trace(jobs, rate, 1, gpus=gpus)
    seen, kept = [0], []

    def observe(instance: PlacementInstance, solution: PlacementSolution) -> None:
        if seen[0] % every == 0:
            kept.append((instance, solution))
        seen[0] += 1

    tick("Summit-sized trace: simulating", 0, None)
    cpu, wall = time.process_time(), time.perf_counter()
    result = simulate_trace(trace, "fifo", "pal", observe=observe)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    tick("Summit-sized trace: exact rounds", 0, len(kept))
    options = SolveOptions(time_limit=BACKSTOP_S, node_limit=NODES)
    done = functools.partial(tick, "Summit-sized trace: exact rounds", 1, None)
    gaps = exact_gaps(kept, options, params={"dual_steps": STEPS}, on_done=done)
    return [
        {
            "jobs": jobs,
            "gpus": gpus,
            "rounds": seen[0],
            "every": every,
            "round_length_s": trace.round_length,
            "mean_jct_s": result.mean_jct,
            "simulate_cpu_s": cpu,
            "simulate_wall_s": wall,
            "round": [g.round for g in gaps],
            "round_jobs": [g.jobs for g in gaps],
            "objective": [FAMILY.evaluate(i, s).objective for i, s in kept],
            "exact": [g.exact for g in gaps],
            "bound": [g.bound for g in gaps],
            "status": [str(g.status) for g in gaps],
        }
    ]


def compare_summit(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    (row,) = rows
    primal = [primal_gap(o, e) for o, e in zip(row["objective"], row["exact"], strict=True)]
    certified = [certified_gap(o, b) for o, b in zip(row["objective"], row["bound"], strict=True)]
    where = f"{row['jobs']:,} jobs on {row['gpus']:,} GPUs, every {row['every']:,}-th placed round"
    out = [
        PaperValue("Fig. 18", "Summit-sized trace: PAL mean JCT", None, row["mean_jct_s"] / 3600, "h", where),
        PaperValue("Fig. 18", "Summit-sized trace: rounds placing a job", None, row["rounds"], "", where),
        PaperValue("Fig. 18", "sampled rounds", None, len(row["status"]), ""),
        PaperValue(
            "Fig. 18", "sampled rounds proven optimal by exact-blocks", None, row["status"].count("optimal"), ""
        ),
    ]
    for what, gaps in (("PAL gap to the best exact placement", primal), ("PAL certified gap", certified)):
        known = [g for g in gaps if g is not None]
        for name, pick in (("mean", fmean), ("max", max)):
            value = 100 * pick(known) if known else None
            out.append(PaperValue("Fig. 18", f"sampled rounds: {what}, {name}", None, value, "%"))
    for clock, key in (("CPU", "simulate_cpu_s"), ("wall", "simulate_wall_s")):
        what = f"Summit-sized trace: simulation {clock} time"
        out.append(PaperValue("Fig. 18", what, None, row[key], "s", measured=True))
    return out
