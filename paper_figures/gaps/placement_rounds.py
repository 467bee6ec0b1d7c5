"""A new figure (not in the paper): each policy's per-round gap to the exact round optimum
(``exact-blocks``) along the Sia-Philly workloads (:mod:`packgap.paper_figures.pal.sia_philly`), with
the proven bound (:mod:`packgap.analysis.placement.round_gaps`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from packgap.analysis.kit import PaperValue, Tick
from packgap.paper_figures.pal.plots import certified, primal
from packgap.paper_figures.pal.sia_philly import Rounds, SiaPhilly, missing, sia_philly, simulate_policy
from packgap.placement import PlacementInstance


def round_key(instance: PlacementInstance) -> tuple[Any, ...]:
    """What a round's exact optimum depends on (ids, order and, under the ``slowdown``
    objective, remaining work do not): non-sticky rounds repeat until a job comes or goes."""
    jobs = sorted(
        (j.gpus, j.job_class, j.model, j.work if instance.objective == "work" else 0.0) for j in instance.jobs
    )
    cluster = (instance.nodes, instance.gpus_per_node, tuple(sorted(instance.pm_scores.items())))
    penalties = (instance.locality_penalty, tuple(sorted(instance.model_penalties.items())))
    return (cluster, penalties, instance.objective, tuple(jobs), tuple(sorted(instance.unavailable)))


def gap_rows(
    sia: SiaPhilly, workloads: Sequence[int], policies: Sequence[str], every: int, time_limit: float, tick: Tick
) -> list[dict[str, Any]]:
    """Each policy's every ``every``-th placed round against ``exact-blocks``: one row per
    (workload, policy) with the round indices, the policy's objective, the exact objective,
    the proven bound and the status; rounds equal under :func:`round_key` are solved once."""
    from packgap.analysis.placement.round_gaps import exact_gaps
    from packgap.placement import FAMILY
    from packgap.solvers.outcome import SolveOptions

    rows = []
    for w in workloads:
        kept: dict[str, Rounds] = {p: [] for p in policies}
        for policy in policies:
            simulate_policy(sia, sia.cluster, w, policy, "paper", kept[policy])
            kept[policy] = kept[policy][::every]
        unique = {round_key(i): (i, s) for rounds in kept.values() for i, s in rounds}
        tick(f"round gaps, workload {w}", 0, len(unique))
        options = SolveOptions(time_limit=time_limit)
        done = functools.partial(tick, f"round gaps, workload {w}", 1, None)
        solved = exact_gaps(list(unique.values()), options, exact="exact-blocks", on_done=done)
        exact = dict(zip(unique, solved, strict=True))
        for policy, rounds in kept.items():
            gaps = [exact[round_key(i)] for i, _ in rounds]
            row: dict[str, Any] = {"workload": w, "policy": policy, "round_length_s": sia.round_length}
            row["round"] = [int(i.name.removeprefix("round-")) for i, _ in rounds]
            row["objective"] = [FAMILY.evaluate(i, s).objective for i, s in rounds]
            row |= {"exact": [g.exact for g in gaps], "bound": [g.bound for g in gaps]}
            row["status"] = [str(g.status) for g in gaps]
            rows.append(row)
    return rows


#: The policies measured, named here: a placement policy added to packgap (or a plug-in's) joins
#: only when it is added to these lists.
QUICK_POLICIES = ("pal", "pm-first", "packed-sticky", "packed-non-sticky")
FULL_POLICIES = (*QUICK_POLICIES, "random-sticky", "random-non-sticky")


def round_gaps_size(quick: bool) -> dict[str, Any]:
    return {"workloads": "1" if quick else "1, 3, 5", "policies": 4 if quick else 6, "every": 100 if quick else 1}


def round_gaps(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Quick: workload 1, four policies, every 100th round, 2 s per exact round; full:
    workloads 1, 3 and 5, all six policies, every round, 5 s per exact round."""
    sia = sia_philly()
    if isinstance(sia, str):
        return [{"missing": sia}]
    workloads = [w for w in ((1,) if quick else (1, 3, 5)) if w in sia.workloads] or [min(sia.workloads)]
    policies = QUICK_POLICIES if quick else FULL_POLICIES
    return gap_rows(sia, workloads, policies, 100 if quick else 1, 2.0 if quick else 5.0, tick)


def compare_round_gaps(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    reason = missing(rows)
    note = reason or "new figure (not in the paper): per-round gap to exact-blocks"
    out = []
    for policy in dict.fromkeys(r["policy"] for r in rows if not reason) or ["pal", "pm-first"]:
        mine = [r for r in rows if r.get("policy") == policy]
        for q, gaps, pick in (("mean", primal, fmean), ("worst", primal, max), ("mean certified", certified, fmean)):
            ours = None if reason else 100 * pick(gaps(mine))
            # exact-blocks shares out wall-clock time per round (no work limit): measured.
            out.append(PaperValue("round gaps", f"{policy} {q} per-round gap", None, ours, "%", note, measured=True))
    return out
