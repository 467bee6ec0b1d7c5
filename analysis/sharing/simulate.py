"""``packgap simulate`` on a sharing instance: every online policy over the whole workload,
with the paper's metrics (average JCT, makespan, queuing, large/small split) and the cheap
valid bound beside them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from packgap.analysis.kit import Option, Simulation, SimulationTable, Tick
from packgap.analysis.sharing.methods import parse_thresholds
from packgap.errors import UnknownNameError

if TYPE_CHECKING:
    from packgap.sharing import SharingInstance, SharingSolution

POLICY_NAMES = ("fifo", "sjf", "tiresias", "sjf-ffs", "sjf-bsbf")
#: Paper's Pollux row: not reproduced (see README / issue 9): it tunes batch sizes and GPU
#: counts with a goodput model and a genetic-algorithm allocator this model cannot express.
POLLUX_NOTE = "Pollux not reproduced: its goodput model changes batch size and GPU count, outside eqs. 3-7"


def policy(name: str, instance: SharingInstance, thresholds: str = "3250") -> SharingSolution:
    """Run one online policy by name."""
    from packgap.heuristics.sharing.exclusive import fifo, sjf
    from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
    from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
    from packgap.heuristics.sharing.tiresias import tiresias

    if name == "tiresias":
        return tiresias(instance, parse_thresholds(thresholds))
    table = {"fifo": fifo, "sjf": sjf, "sjf-ffs": sjf_ffs, "sjf-bsbf": sjf_bsbf}
    if name not in table:
        raise UnknownNameError("sharing policy", name, list(POLICY_NAMES))
    return table[name](instance)


def policies(text: str) -> list[str]:
    names = list(POLICY_NAMES) if text.strip() == "all" else [n.strip() for n in text.split(",") if n.strip()]
    for n in names:
        if n not in POLICY_NAMES:
            raise UnknownNameError("sharing policy", n, [*POLICY_NAMES, "all"])
    return names


def run(
    instance: SharingInstance, options: Mapping[str, Any], seed: int, time_limit: float | None, tick: Tick
) -> dict[str, Any]:
    from packgap.models.sharing.bound import average_jct_lower_bound
    from packgap.sharing import FAMILY

    names = policies(options.get("policy", "all"))
    runs = []
    tick("policies", 0, len(names))
    for name in names:
        solution = policy(name, instance, options.get("thresholds", "3250"))
        FAMILY.validate(instance, solution)
        runs.append({"policy": name, "metrics": dict(FAMILY.evaluate(instance, solution).metrics)})
        tick("policies", 1, None)
    return {
        "instance": instance.name,
        "source": instance.source,
        "jobs": len(instance.jobs),
        "bound_avg_jct_s": average_jct_lower_bound(instance),
        "runs": runs,
        "note": POLLUX_NOTE,
    }


def table(document: dict[str, Any]) -> SimulationTable:
    bound = document["bound_avg_jct_s"]
    rows = []
    for r in document["runs"]:
        m = r["metrics"]
        gap = (m["avg_jct_s"] - bound) / m["avg_jct_s"] if m["avg_jct_s"] > 0 else 0.0
        rows.append(
            (
                r["policy"],
                m["avg_jct_s"] / 3600,
                m["large_avg_jct_s"] / 3600,
                m["small_avg_jct_s"] / 3600,
                m["avg_queuing_s"] / 3600,
                m["makespan_s"] / 3600,
                f"{100 * gap:.1f} %",
            )
        )
    return SimulationTable(
        f"{document['instance']}: {document['jobs']} jobs; bound on avg JCT {bound / 3600:.3f} h",
        ("policy", "avg JCT h", "large h", "small h", "queuing h", "makespan h", "gap to bound"),
        tuple(rows),
    )


def runs(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(r["policy"], r["metrics"]) for r in document["runs"]]


SIMULATION = Simulation(
    kinds=("sharing",),
    options=(
        Option("policy", str, "sharing: policy name(s) (fifo, sjf, tiresias, sjf-ffs, sjf-bsbf) or all."),
        Option("thresholds", str, "sharing: Tiresias queue thresholds, GPU-seconds (default 3250)."),
    ),
    run=run,
    table=table,
    runs=runs,
)
