"""``packgap simulate`` on a packing instance: CUCKOO's online mode (:mod:`packgap.analysis.packing.online`).

Jobs arrive over time, the waiting queue is re-packed and re-planned every round, groups are
never preempted. ``muri-s`` and ``muri-l`` are Muri's own event-driven schedulers instead
(regrouping and preempting at every event, :mod:`packgap.heuristics.packing.muri_online`;
one GPU type; their iteration times are Muri's whatever the instance's ``interleaving``, so
the pipelines beside them compare like for like on an instance with ``interleaving: muri``,
e.g. ``from-trace muri --interleaving muri``); ``--interval`` and ``--on-events`` do not
apply to them. The objective and
metrics of every pipeline run come from the family's evaluator (a Muri run's from the same
eq. 8-10 on its completions); a proven lower bound on mean JCT (and, with ``--reference``,
the offline optimum or bound of an exact method) stands beside them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from packgap.analysis import plugins
from packgap.analysis.kit import Option, Simulation, SimulationTable, Tick
from packgap.analysis.packing.methods import BY_NAME, PIPELINE_NAMES
from packgap.analysis.packing.online_plots import plot_document
from packgap.errors import PackgapError, UnknownNameError

if TYPE_CHECKING:
    from packgap.packing import PackingInstance

#: Seconds between re-plans when the user names no ``--interval`` (CUCKOO's 60 s rounds).
DEFAULT_INTERVAL = 60.0

OPTIONS = (
    Option("pipeline", str, "packing: pipeline(s), e.g. dab+mchp, muri-s, muri-l, or all (the pipelines)."),
    Option("interval", float, "packing: seconds between re-plans (0: only at arrivals/ends).", minimum=0),
    Option("on_events", bool, "packing: also re-plan at arrivals/ends."),
    Option(
        "reference",
        str,
        "packing: exact method for the offline optimum (small N).",
        choices=tuple(m.name for m in BY_NAME.values() if m.exact),
    ),
)

METRICS = ("mean_jct_s", "p99_jct_s", "deadline_satisfaction", "late_jobs", "makespan_s", "max_queue", "mean_queue")


#: Muri's own online schedulers (:data:`packgap.analysis.packing.online.MURI_POLICIES`).
MURI_POLICIES = ("muri-s", "muri-l")


def pipelines(text: str) -> list[str]:
    """``"all"`` (every pipeline and plug-in policy) or a comma list of registered pipelines, Muri
    policies and plug-in policies (an unknown one fails before any run)."""
    own = [*PIPELINE_NAMES, *plugins.policies("packing")]
    names = own if text.strip() == "all" else [p.strip() for p in text.split(",") if p.strip()]
    known = [*own, *MURI_POLICIES]
    for name in names:
        if name not in known:
            raise UnknownNameError("pipeline", name, known)
    return names


def run(
    instance: PackingInstance,
    options: Mapping[str, Any],
    seed: int,
    time_limit: float | None,
    tick: Tick,
    *,
    solver: str = "highs",
) -> dict[str, Any]:
    """Every chosen pipeline online, then the references; a JSON-ready document."""
    from packgap.analysis.packing.online import compare_online, muri_report, online_document, report_to_dict
    from packgap.analysis.packing.online_bound import references
    from packgap.solvers.outcome import SolveOptions

    reference = options.get("reference")
    if reference is not None and (reference not in BY_NAME or not BY_NAME[reference].exact):
        raise PackgapError(f"--reference {reference}: not an exact method with a bound")
    names = pipelines(options.get("pipeline") or "all")
    interval = options.get("interval")
    interval_s = DEFAULT_INTERVAL if interval is None else interval or None
    reports = []
    tick("online runs", 0, len(names))
    for name in names:
        if name in MURI_POLICIES:
            reports.append(muri_report(instance, name))
        else:
            online = compare_online(instance, [name], interval_s=interval_s, on_events=bool(options.get("on_events")))
            reports += [report_to_dict(r) for r in online]
        tick(f"online: {name}", 1, None)
    refs = references(
        instance,
        exact=reference,
        options=SolveOptions(time_limit=60.0 if time_limit is None else time_limit, solver=solver),
    )
    document = online_document(instance, [], refs)
    document["pipelines"] = reports
    document["jobs"] = [{"id": j.id, "arrival_s": j.arrival, "deadline_s": j.deadline} for j in instance.jobs]
    return document


def table(document: dict[str, Any]) -> SimulationTable:
    rows = [(r["pipeline"], *(r["metrics"][k] for k in METRICS)) for r in document["pipelines"]]
    rows += [
        (f"{ref['kind']} ({ref['source']})", ref["mean_jct_s"], *([None] * (len(METRICS) - 1)))
        for ref in document["references"]
    ]
    return SimulationTable(f"{document['instance']} online", ("pipeline", *METRICS), tuple(rows))


def runs(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(r["pipeline"], r["metrics"]) for r in document["pipelines"]]


SIMULATION = Simulation(
    kinds=("packing",),
    options=OPTIONS,
    run=run,
    table=table,
    plot=plot_document,
    runs=runs,
    takes_solver=True,
    policies=(*PIPELINE_NAMES, *MURI_POLICIES),
)
