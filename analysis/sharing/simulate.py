"""``packgap simulate`` on a sharing instance: every online policy over the whole workload, with
the paper's metrics (average JCT, makespan, queuing to first start and time not running,
large/small split) and valid bounds on the average JCT beside them: the cheap bound
(:mod:`packgap.models.sharing.bound`) and, with ``--bound lp`` (the default), the rate LP
(:mod:`packgap.analysis.sharing.lp_bound`; about 10 s at 240 jobs on 64 GPUs, 25 s on a Pollux
file, within the time limit) or, with ``--bound milp``, the rate LP with completion-slot
binaries (HiGHS's MIP dual bound; stronger on small instances, measured in
``docs/families/sharing.md``). ``bound_avg_jct_s`` is the larger of the two: all hold with and
without preemption. With ``--bound class`` the rate LP is computed too, and beside it
``class_bound_avg_jct_s``: the class bound of :mod:`packgap.models.sharing.run_lp` (raised to
``bound_avg_jct_s`` where that is larger), valid for the non-preemptive policies only (FIFO,
SJF, SJF-FFS, SJF-BSBF); the table's class gap is against it, and Tiresias gets none. How far
each lies below exact-bb's proven optimum: ``docs/families/sharing.md``, "The class bound"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from packgap.analysis import plugins
from packgap.analysis.kit import Option, Simulation, SimulationTable, Tick
from packgap.analysis.sharing.methods import TIRESIAS_THRESHOLDS, parse_thresholds
from packgap.errors import UnknownNameError

if TYPE_CHECKING:
    from packgap.sharing import SharingInstance, SharingSolution

POLICY_NAMES = ("fifo", "sjf", "tiresias", "sjf-ffs", "sjf-bsbf")
BOUNDS = ("lp", "milp", "cheap", "class")
#: The policies of the non-preemptive class, which the class bound binds (Tiresias preempts).
NON_PREEMPTIVE_POLICIES = ("fifo", "sjf", "sjf-ffs", "sjf-bsbf")
#: Seconds the rate LP may take (built and solved) when ``packgap simulate`` names no time limit.
LP_TIME_LIMIT = 60.0
#: Paper's Pollux row: not reproduced (see README / issue 9): it tunes batch sizes and GPU
#: counts with a goodput model and a genetic-algorithm allocator this model cannot express.
POLLUX_NOTE = "Pollux not reproduced: its goodput model changes batch size and GPU count, outside eqs. 3-7"


def policy(name: str, instance: SharingInstance, thresholds: str = TIRESIAS_THRESHOLDS) -> SharingSolution:
    """Run one online policy by name: packgap's own or a plug-in's (``function(instance)``)."""
    from packgap.heuristics.sharing.exclusive import fifo, sjf
    from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
    from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
    from packgap.heuristics.sharing.tiresias import tiresias

    if name == "tiresias":
        return tiresias(instance, parse_thresholds(thresholds))
    table = {"fifo": fifo, "sjf": sjf, "sjf-ffs": sjf_ffs, "sjf-bsbf": sjf_bsbf}
    if name in table:
        solution: SharingSolution = table[name](instance)
        return solution
    own = plugins.policy("sharing", name)
    if own is None:
        raise UnknownNameError("sharing policy", name, policy_names())
    found: SharingSolution = plugins.as_solution("sharing", own.function(instance))
    return found


def policy_names() -> list[str]:
    """packgap's own policies, then the plug-ins'."""
    return [*POLICY_NAMES, *plugins.policies("sharing")]


def validated_policy(name: str, instance: SharingInstance, thresholds: str = TIRESIAS_THRESHOLDS) -> SharingSolution:
    """:func:`policy`'s schedule, checked by the family validator (every reproduction scores valid schedules)."""
    from packgap.sharing import FAMILY

    solution = policy(name, instance, thresholds)
    FAMILY.validate(instance, solution)
    return solution


def policies(text: str) -> list[str]:
    """``"all"`` (plug-ins included) or a comma list of policy names."""
    known = policy_names()
    names = known if text.strip() == "all" else [n.strip() for n in text.split(",") if n.strip()]
    for n in names:
        if n not in known:
            raise UnknownNameError("sharing policy", n, [*known, "all"])
    return names


def run(
    instance: SharingInstance,
    options: Mapping[str, Any],
    seed: int,
    time_limit: float | None,
    tick: Tick,
    iteration_limit: int | None = None,
    *,
    solver: str = "highs",
) -> dict[str, Any]:
    from packgap.sharing import FAMILY

    names = policies(options.get("policy", "all"))
    kind = options.get("bound", "lp")
    if kind not in BOUNDS:
        raise UnknownNameError("sharing bound", kind, list(BOUNDS))
    runs = []
    tick("policies", 0, len(names))
    for name in names:
        solution = validated_policy(name, instance, options.get("thresholds", TIRESIAS_THRESHOLDS))
        runs.append({"policy": name, "metrics": dict(FAMILY.evaluate(instance, solution).metrics)})
        tick("policies", 1, None)
    return {
        "instance": instance.name,
        "source": instance.source,
        "jobs": len(instance.jobs),
        "bound_kind": kind,
        **bounds(instance, kind, LP_TIME_LIMIT if time_limit is None else time_limit, iteration_limit, solver),
        "runs": runs,
        "note": POLLUX_NOTE,
    }


def bounds(
    instance: SharingInstance,
    kind: str,
    time_limit: float | None,
    iteration_limit: int | None = None,
    solver: str = "highs",
) -> dict[str, Any]:
    """The cheap bound, the rate LP's or its MILP's by ``kind`` (None: "cheap", or past the
    time or the ``solver``'s iteration limit, which ``lp_status`` then says) and the larger of
    the two, ``bound_avg_jct_s``, as average JCTs; ``kind`` "class" adds ``class_bound_avg_jct_s``
    (non-preemptive schedules only, ``class_status`` the solver's word on it), each LP with half
    the time limit."""
    from packgap.analysis.sharing import lp_bound
    from packgap.models.sharing.bound import completion_lower_bound

    if not instance.jobs:
        return {"bound_avg_jct_s": 0.0, "cheap_bound_avg_jct_s": 0.0, "lp_bound_avg_jct_s": None}
    n, arrivals = len(instance.jobs), sum(j.arrival for j in instance.jobs)
    if kind == "cheap":
        cheap = (completion_lower_bound(instance) - arrivals) / n
        return {"bound_avg_jct_s": cheap, "cheap_bound_avg_jct_s": cheap, "lp_bound_avg_jct_s": None}
    share = None if time_limit is None or kind != "class" else time_limit / 2
    limit = time_limit if share is None else share
    found = lp_bound.solve(instance, None, limit, milp=kind == "milp", iteration_limit=iteration_limit, solver=solver)
    out = {
        "bound_avg_jct_s": (found.completion_sum - arrivals) / n,
        "cheap_bound_avg_jct_s": (found.cheap_sum - arrivals) / n,
        "lp_bound_avg_jct_s": None if found.lp_sum is None else (found.lp_sum - arrivals) / n,
        "lp_status": found.status,
    }
    if kind == "class":
        runs = lp_bound.solve(instance, None, limit, iteration_limit=iteration_limit, solver=solver, runs=True)
        out["class_bound_avg_jct_s"] = (max(runs.completion_sum, found.completion_sum) - arrivals) / n
        out["class_status"] = runs.status
    return out


def _gap(jct: float, bound: float) -> str:
    return f"{100 * ((jct - bound) / jct if jct > 0 else 0.0):.1f} %"


def table(document: dict[str, Any]) -> SimulationTable:
    bound = document["bound_avg_jct_s"]
    cls = document.get("class_bound_avg_jct_s")
    rows = []
    for r in document["runs"]:
        m = r["metrics"]
        own = () if cls is None else (_gap(m["avg_jct_s"], cls) if r["policy"] in NON_PREEMPTIVE_POLICIES else "-",)
        rows.append(
            (
                r["policy"],
                m["avg_jct_s"] / 3600,
                m["large_avg_jct_s"] / 3600,
                m["small_avg_jct_s"] / 3600,
                m["avg_queuing_s"] / 3600,
                m["avg_not_running_s"] / 3600,
                m["makespan_s"] / 3600,
                _gap(m["avg_jct_s"], bound),
                *own,
            )
        )
    lp = document.get("lp_bound_avg_jct_s")
    name = "MILP" if document.get("bound_kind") == "milp" else "rate LP"
    which = f"cheap {document['cheap_bound_avg_jct_s'] / 3600:.3f} h, {name} " + (
        "not computed" if lp is None else f"{lp / 3600:.3f} h"
    )
    title = f"{document['instance']}: {document['jobs']} jobs; bound on avg JCT {bound / 3600:.3f} h ({which})"
    columns: tuple[str, ...] = (
        "policy",
        "avg JCT h",
        "large h",
        "small h",
        "queuing h",
        "not running h",
        "makespan h",
        "gap to bound",
    )
    if cls is not None:
        title += f"; non-preemptive class bound {cls / 3600:.3f} h (class gap: FIFO, SJF, SJF-FFS, SJF-BSBF only)"
        columns += ("class gap",)
    return SimulationTable(title, columns, tuple(rows))


def runs(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(r["policy"], r["metrics"]) for r in document["runs"]]


SIMULATION = Simulation(
    kinds=("sharing",),
    options=(
        Option("policy", str, "sharing: policy name(s) (fifo, sjf, tiresias, sjf-ffs, sjf-bsbf, plug-ins) or all."),
        Option(
            "thresholds",
            str,
            f"sharing: Tiresias queue thresholds, GPU-seconds (default {TIRESIAS_THRESHOLDS}: three queues).",
        ),
        Option(
            "bound",
            str,
            "sharing: lp (the rate LP beside the cheap bound; default), milp (its completion-slot MILP), cheap, "
            "or class (the rate LP and the non-preemptive class bound beside it).",
            choices=BOUNDS,
        ),
    ),
    run=run,
    table=table,
    runs=runs,
    takes_solver=True,
    policies=POLICY_NAMES,
)
