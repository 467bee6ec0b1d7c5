"""Solver benchmarks (issue 34.4): every (family, exact model that hands an LP / MILP to a solver)
on a fixed instance set, with every solver installed here, under one time limit.

Each run is one row of a results store (resumable, like ``packgap sweep``); from the rows it draws
Dolan and More's performance profiles (2002, Math. Prog. 91; as in Mittelmann's solver benchmarks):
(a) of the time to a proven optimum, a run without one counting as never, and (b) the share of
problems whose certified gap at the limit is within x; and it writes the solved counts per solver
and family as a Markdown table.

    python -m benchmarks.solver_profiles --out solver-bench [--time-limit 10] [--solvers highs,scip]

    make solver-profiles

A problem is one (family, model, instance); a solver over a size-limited licence on it counts as
not solved (status ``licence``). Measured on the shared 2-core machine (load 6-8), 10 s limit,
38 problems, HiGHS 1.12.0, SCIP 10.0.2 and the size-limited Gurobi 13.0.3, CPLEX 22.2.0.0 and
Xpress 47.01.02: 11 min wall for all five (190 runs); proven optima HiGHS 24 / 38, SCIP 21,
Xpress 18, Gurobi 14, CPLEX 6 (the commercial counts are their licences' size limits, not their
speed: 4-8 of their problems per family are over them).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis import registry
from packgap.analysis.store import ResultStore, instance_digest
from packgap.analysis.sweep import Cell, run_sweep
from packgap.errors import SolverUnavailableError
from packgap.result import SolveResult
from packgap.solvers import catalogue
from packgap.solvers.outcome import SolveOptions

#: The fixed instance set: (family, generator options), small enough that most models prove
#: their optimum within seconds and large enough that some do not.
INSTANCES: tuple[tuple[str, Mapping[str, Any]], ...] = (
    *(("planning", {"groups": n, "seed": s}) for n in (8, 16, 32) for s in (1, 2)),
    *(("packing", {"jobs": n, "seed": s}) for n in (4, 8, 16) for s in (1, 2)),
    *(("placement", {"gpus": g, "jobs": j, "seed": s}) for g, j in ((64, 21), (256, 50)) for s in (1, 2)),
    *(("sharing", {"jobs": n, "seed": s}) for n in (6, 10) for s in (1, 2)),
)
#: Certified gaps drawn in panel (b), from "proven" to 100 %.
GAPS = (1e-6, 1.0)


def cells(solvers: Sequence[str]) -> list[Cell]:
    """One cell per (instance, model, solver)."""
    found = []
    for family, options in INSTANCES:
        document = registry.to_document(family, registry.generator(family).build(dict(options)))
        for method in registry.kit(family).methods:
            found += [Cell(family, document, method.name, 0, {}, s) for s in solvers if s in method.solvers]
    return found


def run(cells_: Sequence[Cell], store: Path, time_limit: float, workers: int) -> list[dict[str, Any]]:
    """Every cell's row (each solver's runs in its own sweep, so that a size-limited licence stops
    only its own solver's cells); ``status`` is ``licence`` where the licence is too small."""
    rows: list[dict[str, Any]] = []
    options = SolveOptions(time_limit=time_limit, seed=0)
    for solver in dict.fromkeys(c.solver for c in cells_):
        mine = [c for c in cells_ if c.solver == solver]
        db = ResultStore(store)
        try:
            results: list[SolveResult | None] = list(run_sweep(mine, options, db, workers=workers))
        except SolverUnavailableError as exc:
            print(f"{solver}: {exc}", flush=True)
            results = [_one(c, options, db) for c in mine]
        finally:
            db.close()
        for cell, result in zip(mine, results, strict=True):
            rows.append(_row(cell, result))
    return rows


def _one(cell: Cell, options: SolveOptions, db: ResultStore) -> SolveResult | None:
    try:
        return run_sweep([cell], options, db, workers=1)[0]
    except SolverUnavailableError:
        return None


def _row(cell: Cell, result: SolveResult | None) -> dict[str, Any]:
    problem = f"{cell.family}/{cell.method}/{instance_digest(cell.instance)[:12]}"
    if result is None:
        return {
            "problem": problem,
            "family": cell.family,
            "method": cell.method,
            "solver": cell.solver,
            "status": "licence",
            "wall_s": None,
            "gap": None,
            "objective": None,
        }
    return {
        "problem": problem,
        "family": cell.family,
        "method": cell.method,
        "solver": cell.solver,
        "status": str(result.status),
        "wall_s": result.wall_s,
        "gap": result.gap,
        "objective": result.objective,
    }


def frame(rows: Sequence[dict[str, Any]]) -> Any:
    import pandas as pd

    return pd.DataFrame(list(rows))


def time_ratios(table: Any) -> Any:
    """Problems x solvers: time to a proven optimum over the best solver's (inf: none proven),
    through :func:`packgap.analysis.profiles.ratios`."""
    import numpy as np

    from packgap.analysis.profiles import ratios

    proven = table["status"] == "optimal"
    shaped = table.assign(
        instance_digest=table["problem"],
        method=table["solver"],
        objective=np.where(proven, 1.0, np.nan),
        wall_s=table["wall_s"].astype(float),
    )
    return ratios(shaped, "time")


def plot(table: Any, out: Path, time_limit: float) -> list[Path]:
    """Panel (a): the time profile; panel (b): the share of problems within each certified gap."""
    import numpy as np

    from packgap.analysis.plotting import log_axis, new_figure, panels, save_figure

    r = time_ratios(table)
    fig = new_figure(9.0, 3.6)
    a, b = panels(fig, 1, 2)
    finite = r.to_numpy()[np.isfinite(r.to_numpy())]
    taus = np.geomspace(1.0, max(2.0, float(finite.max()) * 1.05) if finite.size else 2.0, 400)
    gaps = np.geomspace(*GAPS, 400)
    for solver in r.columns:
        values = r[solver].to_numpy()
        a.step(taus, [(values <= t).mean() for t in taus], where="post", label=str(solver))
        mine = table[table["solver"] == solver]
        gap = mine["gap"].astype(float).fillna(np.inf).to_numpy()
        b.step(gaps, [(gap <= g).mean() for g in gaps], where="post", label=str(solver))
    log_axis(a)
    log_axis(b)
    a.set(
        xlabel="time to proven optimum / best solver's",
        ylabel="share of problems",
        ylim=(0, 1.02),
        title=f"(a) time profile ({len(r)} problems)",
    )
    b.set(
        xlabel=f"certified gap at the {time_limit:g} s limit",
        ylabel="share of problems",
        ylim=(0, 1.02),
        title="(b) gap at the limit",
    )
    a.legend(fontsize=8, loc="lower right")
    return save_figure(fig, out, "solver-profiles")


def counts(table: Any) -> str:
    """Solved counts per family and solver as a Markdown table: proven optima / problems, and
    the median time of the proven ones."""
    lines = [
        "| family | solver | proven optimal | feasible or timeout | other | median s (proven) |",
        "|---|---|---|---|---|---|",
    ]
    for (family, solver), group in table.groupby(["family", "solver"], sort=True):
        proven = group[group["status"] == "optimal"]
        open_ = group["status"].isin(("feasible", "timeout")).sum()
        median = f"{proven['wall_s'].median():.2f}" if len(proven) else "-"
        other = len(group) - len(proven) - open_
        lines.append(f"| {family} | {solver} | {len(proven)} / {len(group)} | {open_} | {other} | {median} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("solver-bench"), help="output folder")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--solvers", default=None, help="comma-separated solvers (default: every one installed)")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes")
    args = parser.parse_args()
    chosen = args.solvers.split(",") if args.solvers else [n for n in catalogue.NAMES if catalogue.is_installed(n)]
    for name in chosen:
        catalogue.require(name)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    table = frame(run(cells(chosen), args.out / "solver-runs.duckdb", args.time_limit, args.workers))
    table.to_csv(args.out / "solver-runs.csv", index=False)
    (args.out / "solver-counts.md").write_text(counts(table), encoding="utf-8")
    paths = plot(table, args.out, args.time_limit)
    versions = {n: catalogue.version(n) for n in chosen}
    (args.out / "solvers.json").write_text(json.dumps(versions, indent=1) + "\n", encoding="utf-8")
    print(counts(table))
    print(f"wrote {', '.join(str(p) for p in paths)} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
