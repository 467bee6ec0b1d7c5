"""``packgap calibration ...``: the per-set report of issue 10 and a solution checker.

* ``table3``: per Table 3 set, GIMBAL's objective (early exit and full search), the exact
  optimum on the grid, the continuous-share bound, the gaps between them, and how many
  configurations each one evaluated (GIMBAL: measured configurations; exact: frontier points;
  bound: relaxed points), with GIMBAL's simulated search time (section 7.4).
* ``check INSTANCE SOLUTION``: validate a calibration solution file against its job set and
  score it; a bad share or split exits with code 2 and names the field.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from packgap.analysis.kit import Tick, no_tick

COLUMNS = (
    ("job_set", "set"),
    ("gimbal_jct_s", "GIMBAL"),
    ("full_jct_s", "GIMBAL full"),
    ("exact_jct_s", "grid optimum"),
    ("continuous_bound_s", "continuous bound"),
    ("gimbal_gap", "GIMBAL gap"),
    ("grid_gap", "grid vs bound"),
    ("gimbal_evaluations", "evals GIMBAL"),
    ("exact_evaluations", "evals exact"),
    ("gimbal_search_s", "search s"),
)


#: Seconds the eight sets take on the 1 % grid (2-core development machine, loaded), and how the
#: time grows as the grid gets finer: measured 28 s at 2 %, 223 s at 1 %, i.e. (1 / g)^3.
SECONDS_AT_1_PERCENT = 223.0
#: Longest run ``table3`` starts: a finer grid is refused with its estimate.
MAX_ESTIMATE_S = 3600.0


def estimated_seconds(granularity: float) -> float:
    """Rough time of :func:`report_rows` on a ``granularity`` % grid (cubic in the grid levels)."""
    return SECONDS_AT_1_PERCENT / granularity**3


def check_granularity(granularity: float) -> None:
    """Refuse a step outside (0, 100] % or a grid whose estimated time exceeds :data:`MAX_ESTIMATE_S`."""
    from packgap.errors import PackgapError

    if not 0 < granularity <= 100:  # also refuses nan and inf, which no grid step can be
        raise PackgapError(f"--granularity: an LGRR step in % must lie in (0, 100], got {granularity:g}")
    estimate = estimated_seconds(granularity)
    if estimate > MAX_ESTIMATE_S:
        finest = (SECONDS_AT_1_PERCENT / MAX_ESTIMATE_S) ** (1 / 3)
        raise PackgapError(
            f"--granularity {granularity:g}: a {granularity:g} % grid takes about {estimate / 3600:,.1f} h "
            f"(time grows as (1/g)^3: {SECONDS_AT_1_PERCENT:g} s at 1 %); use {finest:.2f} or more (about 1 h)"
        )


def calibration_row(name: str, granularity: float) -> dict[str, Any]:
    """Table 3's job set ``name`` on an LGRR grid of ``granularity`` %: GIMBAL with early exit and
    with the full search (JCT with and without the search cost of section 7.4), the exact grid
    optimum and the continuous-share bound."""
    from packgap.heuristics.calibration.gimbal import coordinate
    from packgap.heuristics.calibration.search_cost import CostModel, objective_with_search, search_time
    from packgap.instances.calibration.jobsets import table3
    from packgap.models.calibration.continuous import continuous_bound
    from packgap.models.calibration.frontier import optimise
    from packgap.models.calibration.grid import grid_options
    from packgap.models.calibration.layout import layout

    inst = table3(name, granularity=granularity)
    cost = CostModel()
    early, full = coordinate(inst), coordinate(inst, early_exit=False)
    lay = layout(inst)
    exact = optimise(lay, grid_options(lay, granularity))
    return {
        "job_set": name,
        "granularity": granularity,
        "gimbal_jct_s": early.objective,
        "gimbal_jct_with_search_s": objective_with_search(inst, early.steps, early.best, cost),
        "gimbal_search_s": search_time(early.steps, cost),
        "gimbal_evaluations": early.evaluations,
        "full_jct_s": full.objective,
        "full_jct_with_search_s": objective_with_search(inst, full.steps, full.best, cost),
        "full_search_s": search_time(full.steps, cost),
        "full_evaluations": full.evaluations,
        "exact_jct_s": exact.objective,
        "exact_evaluations": exact.evaluations,
        "continuous_bound_s": continuous_bound(lay)[0],
    }


def report_rows(granularity: float, tick: Tick = no_tick) -> list[dict[str, Any]]:
    rows = []
    tick("Table 3 sets", 0, 8)
    for i in range(1, 9):
        tick(f"Table 3 set JC{i}", 0, None)
        rows.append(calibration_row(f"JC{i}", granularity))
        tick(f"Table 3 set JC{i}", 1, None)
    for r in rows:
        r["gimbal_gap"] = (r["gimbal_jct_s"] - r["exact_jct_s"]) / r["gimbal_jct_s"]
        r["grid_gap"] = (r["exact_jct_s"] - r["continuous_bound_s"]) / r["exact_jct_s"]
    return rows


def _cell(key: str, value: Any) -> str:
    if key.endswith("_gap"):
        return f"{100 * value:.2f} %"
    if isinstance(value, float):
        return f"{value:,.1f}"
    return str(value)


def commands() -> typer.Typer:
    app = typer.Typer(no_args_is_help=True, help="GIMBAL calibration: per-set report and solution checks.")

    @app.command("table3")
    def table3(
        granularity: Annotated[
            float, typer.Option("--granularity", min=0.1, help="LGRR step in % (>= 0.4: time grows as (1/g)^3).")
        ] = 10.0,
        as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    ) -> None:
        """GIMBAL vs the exact grid optimum vs the continuous bound on JC1-JC8 (mean JCT, s)."""
        from packgap.analysis.kit import ticking

        check_granularity(granularity)
        with ticking("Table 3 sets", disable=estimated_seconds(granularity) < 60) as tick:
            rows = report_rows(granularity, tick)
        if as_json:
            sys.stdout.write(json.dumps(rows, indent=1) + "\n")
            return
        from rich.console import Console
        from rich.table import Table

        table = Table(*(title for _, title in COLUMNS), title=f"GIMBAL Table 3 sets, {granularity:g} % grid")
        for r in rows:
            table.add_row(*(_cell(key, r[key]) for key, _ in COLUMNS))
        Console(width=200).print(table)

    @app.command("check")
    def check(instance: Path, solution: Path) -> None:
        """Validate SOLUTION (a solution file, or a result file of `solve -o`) against the job
        set INSTANCE and print its objective and metrics."""
        from packgap import jsonio
        from packgap.analysis.registry import load_instance
        from packgap.errors import PackgapError

        family, value = load_instance(instance)
        if family.name != "calibration":
            raise PackgapError(f"{instance} is a {family.name} instance, not a calibration job set")
        document = jsonio.read(solution)
        if {"family", "method", "solution"} <= document.keys():  # a result file (solve -o): check its solution
            if not isinstance(document["solution"], dict):
                raise PackgapError(
                    f"{solution}: a {document['method']} result without a solution (status {document.get('status')})"
                )
            document = document["solution"]
        answer = family.solution_from_dict(document)
        family.validate(value, answer)
        evaluation = family.evaluate(value, answer)
        sys.stdout.write(json.dumps({"objective": evaluation.objective, **evaluation.metrics}, indent=1) + "\n")

    return app
