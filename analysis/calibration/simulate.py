"""``packgap simulate WORKLOAD``: the base schedulers with and without GIMBAL, end to end (section 7.2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from packgap.analysis.kit import Option, Simulation, SimulationTable, Tick
from packgap.heuristics.calibration.variants import BASES, VARIANTS

if TYPE_CHECKING:
    from packgap.calibration.workload import Workload

#: The metric each base scheduler is judged by (section 7.1, "Methodology").
HEADLINE = {"lucid": "mean_jct_s", "gandiva": "deadlines_met", "gavel": "makespan_s"}
COLUMNS = ("mean_jct_s", "mean_queuing_s", "makespan_s", "deadlines_met", "unequal_sets", "search_time_s")

OPTIONS = (
    Option("base", str, "calibration workload: lucid, gandiva, gavel or all.", choices=(*BASES, "all")),
    Option("variant", str, "calibration workload: baseline ... exact, or all.", choices=(*VARIANTS, "all")),
    Option("conservative", float, "calibration workload: least pair speed baselines pack (0.85).", minimum=0),
    Option("aggressive", float, "calibration workload: least pair speed GIMBAL packs (0).", minimum=0),
)


def improvement(rows: Sequence[Mapping[str, Any]], base: str, variant: str) -> float:
    """How much better ``variant`` does than ``baseline`` on the base's headline metric (> 1: better)."""
    found = {r["variant"]: r for r in rows if r["base"] == base}
    mine, plain = found[variant][HEADLINE[base]], found["baseline"][HEADLINE[base]]
    if base == "gandiva":
        return float(mine / plain) if plain else float("nan")
    return float(plain / mine)


def _pick(value: str | None, every: tuple[str, ...], default: tuple[str, ...]) -> tuple[str, ...]:
    if value is None:
        return default
    return every if value == "all" else (value,)


def run(
    workload: Workload, options: Mapping[str, Any], seed: int, time_limit: float | None, tick: Tick
) -> dict[str, Any]:
    """Every requested (base, variant) run; ``metrics`` holds each base's headline metric per variant."""
    from packgap.heuristics.calibration.online import run_all

    bases = _pick(options.get("base"), tuple(BASES), tuple(BASES))
    variants = _pick(options.get("variant"), VARIANTS, ("baseline", "gimbal", "exact"))
    tick("runs", 0, len(bases) * len(variants))
    runs: list[dict[str, Any]] = []
    for base in bases:
        for variant in variants:
            outcome = run_all(
                workload, [base], [variant], options.get("conservative", 0.85), options.get("aggressive", 0.0)
            )[0]
            runs.append({"base": base, "variant": variant, "metrics": outcome.metrics})
            tick("runs", 1, None)
    return {
        "instance": workload.name,
        "source": workload.source,
        "runs": runs,
        "metrics": {
            f"{r['base']}/{r['variant']}/{HEADLINE[r['base']]}": r["metrics"][HEADLINE[r["base"]]] for r in runs
        },
    }


def table(document: dict[str, Any]) -> SimulationTable:
    rows = tuple((r["base"], r["variant"], *(r["metrics"][c] for c in COLUMNS)) for r in document["runs"])
    return SimulationTable(f"{document['instance']}: base schedulers +- GIMBAL", ("base", "variant", *COLUMNS), rows)


SIMULATION = Simulation(kinds=("calibration-workload",), options=OPTIONS, run=run, table=table)
