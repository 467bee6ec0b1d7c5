"""The ``packgap`` command line (typer + rich), built from the registry of family kits.

Nothing here names a family: ``instances generate`` / ``from-trace`` get one sub-command per
generator / trace builder of every kit, with the options the kit declares; ``instances show``
and ``simulate`` take the union of the kits' views and simulation options and refuse those
that do not apply to the file at hand; ``packgap FAMILY ...`` mounts a kit's own commands.

Every expected error (bad file, unknown method, missing solver) prints its message and exits
with code 2; nothing already computed is lost (``compare --store`` keeps each cell).
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

import packgap
from packgap import jsonio
from packgap.analysis import registry
from packgap.analysis.clidynamic import add_family_commands, add_instance_commands, simulate_command
from packgap.analysis.clisweep import family_sweep, spec_sweep
from packgap.analysis.cliutil import (
    PLOT_SUFFIXES,
    AsJson,
    Seed,
    Solver,
    Threads,
    TimeLimit,
    check_folder,
    check_output,
    check_store,
    err,
    fmt_rows,
    out,
    parse_params,
    progress,
    reports_errors,
    result_table,
    save_json,
    seconds,
    solve_options,
    write_rescued,
)
from packgap.analysis.demo import demo_command
from packgap.analysis.kit import ticking
from packgap.analysis.store import ends_on_ctrl_c
from packgap.errors import PackgapError
from packgap.result import SolveResult, Status

#: Help as click writes it: rich's panels (typer 0.29) tag flags ``<bool>`` and cut option names
#: to fit 80 columns (``--preemption-overhe…``); click wraps the help text and never a name. Up to
#: 120 columns on a terminal, 120 when written to a pipe (click would take 80).
HELP_SETTINGS: dict[str, Any] = {"max_content_width": 120}
if not sys.stdout.isatty() and not os.environ.get("COLUMNS"):
    HELP_SETTINGS["terminal_width"] = 120

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Certified optimality gaps of GPU-cluster packing heuristics.",
    rich_markup_mode=None,
    context_settings=HELP_SETTINGS,
)
instances_app = typer.Typer(no_args_is_help=True, help="Generate, check and show instance files.")
app.add_typer(instances_app, name="instances")


def _version(value: bool) -> None:
    if value:
        out.print(f"packgap {packgap.__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
    plugin: Annotated[
        list[str] | None,
        typer.Option(
            "--plugin",
            metavar="MODULE_OR_FILE",
            help="Load plug-in methods and policies from a module or .py file (repeatable; also $PACKGAP_PLUGINS).",
        ),
    ] = None,
) -> None:
    """packgap: heuristics vs exact optima for GPU-cluster scheduling.

    --plugin is read before the commands are built (:func:`plugin_arguments`), so that a plug-in's
    policies are choices of `simulate`; here it is only declared."""


def plugin_arguments(argv: list[str]) -> list[str]:
    """The values of ``--plugin`` among the options before the command (``packgap --plugin X solve``)."""
    found = []
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        arg = argv[i]
        if arg == "--plugin" and i + 1 < len(argv):
            found.append(argv[i + 1])
            i += 1
        elif arg.startswith("--plugin="):
            found.append(arg.partition("=")[2])
        i += 1
    return found


@app.command()
@reports_errors
def methods(
    family_name: Annotated[str | None, typer.Argument(metavar="FAMILY")] = None,
    as_json: AsJson = False,
) -> None:
    """List registered methods (of one family), plug-ins' methods and online policies included, one line
    each, with the LP / MILP solvers an exact method takes (--solver); --json adds their parameters."""
    from packgap.analysis import plugins

    kits = [registry.kit(family_name)] if family_name else list(registry.kits().values())
    listed = [m for k in kits for m in registry.methods(k.name).values()]
    policies = [p for k in kits for p in plugins.policies(k.name).values()]
    if as_json:
        rows = [
            {
                "family": m.family,
                "method": m.name,
                "kind": "exact" if m.exact else "heuristic",
                "exact": m.exact,
                "description": m.description,
                "parameters": dict(m.defaults),
                "default_time_limit": m.default_time_limit,
                "solvers": list(m.solvers),
                "plugin": m.plugin or None,
            }
            for m in listed
        ]
        rows += [
            {
                "family": p.family,
                "method": p.name,
                "kind": "online policy",
                "description": p.description,
                "plugin": p.origin.module,
            }
            for p in policies
        ]
        sys.stdout.write(jsonio.dumps(rows))
        return
    for m in listed:
        kind = f"exact, {m.default_time_limit:g} s" if m.exact and m.default_time_limit else "heuristic"
        takes = f" [--solver {'|'.join(m.solvers)}]" if m.solvers else ""
        where = f" [plug-in {m.plugin}]" if m.plugin else ""
        line = f"{m.family:<11} {m.name:<20} {kind:<14} {m.description}{takes}{where}"
        out.print(line, highlight=False, soft_wrap=True, markup=False)
    for p in policies:
        line = f"{p.family:<11} {p.name:<20} {'online policy':<14} {p.description} [plug-in {p.origin.module}]"
        out.print(line, highlight=False, soft_wrap=True, markup=False)


@app.command("solvers")
@reports_errors
def solvers_(as_json: AsJson = False) -> None:
    """The LP / MILP solvers `--solver` takes: which are installed here, with their versions."""
    from packgap.solvers import catalogue

    rows = catalogue.installed()
    if as_json:
        sys.stdout.write(jsonio.dumps([{"solver": n, "version": v, "note": note} for n, v, note in rows]))
        return
    for name, version, note in rows:
        shown = version or "not available"
        out.print(f"{name:<8} {shown:<14} {note}", highlight=False, soft_wrap=True)


@instances_app.command("check")
@reports_errors
def instances_check(file: Path) -> None:
    """Exit 0 when FILE is a valid instance or trace; else list every problem, exit 2."""
    doc = registry.load_document(file)
    out.print(f"{file}: valid {doc.kind} {'instance' if doc.family else 'document'} {doc.value.name!r}")


@app.command()
@reports_errors
def solve(
    file: Path,
    method: Annotated[str | None, typer.Option("--method", "-m", help="Method name (see `packgap methods`).")] = None,
    solution: Annotated[
        Path | None,
        typer.Option("--solution", help="Score this solution file (the `solution` of solve --json) instead."),
    ] = None,
    store: Annotated[
        Path | None,
        typer.Option("--store", help="With --solution: DuckDB file whose bounds are used; exact runs are saved."),
    ] = None,
    bound_methods: Annotated[
        str | None,
        typer.Option("--bound-methods", help="With --solution: exact methods run for the bound (default all)."),
    ] = None,
    time_limit: TimeLimit = None,
    seed: Seed = 0,
    threads: Threads = 1,
    solver: Solver = "highs",
    param: Annotated[list[str] | None, typer.Option("--param", help="Method parameter NAME=VALUE.")] = None,
    as_json: AsJson = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the result JSON here.")] = None,
) -> None:
    """Solve one instance with one method (or score a given --solution); the objective is the evaluator's.

    With --solution, the solution is validated, scored, and its certified gap taken against the best bound of
    the instance's exact methods (read from --store, else computed). A method ending with status error still
    writes its full result (--json: stdout, -o: file), then exits 2.
    """
    from packgap.analysis.compare import result_rows
    from packgap.analysis.run import solve as run_solve

    check_output(output, "-o")
    if (method is None) == (solution is None):
        raise PackgapError("give --method NAME (solve) or --solution FILE (score), one of the two")
    if solution is None and (store is not None or bound_methods is not None):
        raise PackgapError("--store and --bound-methods go with --solution")
    fam, instance = registry.load_instance(file)
    options = solve_options(time_limit, seed, threads, solver)
    if solution is not None:
        if param:
            raise PackgapError("--param sets a method's parameters; a scored --solution has none")
        result = score_file(fam, instance, solution, options, store, bound_methods)
        label = str(solution)
    else:
        assert method is not None
        chosen = registry.method(fam.name, method)
        params = chosen.resolve_params(parse_params(param or []))
        chosen.check_solver(solver)
        result = run_solve(fam, instance, chosen, options=options, params=params)
        label = method
    if output is not None:
        save_json(result_rows([result])[0], output)
    if as_json:
        sys.stdout.write(jsonio.dumps(result_rows([result])[0]))
    else:
        result_table([result], title=str(file))
    if result.status == Status.ERROR:
        written = [where for where, given in (("stdout", as_json), (str(output), output is not None)) if given]
        note = f" (result written to {' and '.join(written)})" if written else ""
        raise PackgapError(f"{label} failed on {file}: {result.message}{note}")


def score_file(
    fam: Any, instance: Any, solution: Path, options: Any, store: Path | None, bound_methods: str | None
) -> SolveResult:
    """``solve --solution``: the solution file read (a whole ``solve --json`` result or its
    ``solution``), validated and scored, errors naming the file."""
    from packgap.analysis.score import score
    from packgap.analysis.store import ResultStore
    from packgap.errors import InstanceError, ValidationError

    check_store(store)
    document = jsonio.read(solution)
    if isinstance(document, dict) and isinstance(document.get("solution"), dict) and "method" in document:
        document = document["solution"]  # a whole result of `solve --json`
    db = None if store is None else ResultStore(store)
    try:
        return score(fam, instance, document, options=options, store=db, bound_methods=bound_methods)
    except InstanceError as exc:
        raise InstanceError(str(solution), exc.problems) from None
    except ValidationError as exc:
        raise PackgapError(f"{solution}: {exc}") from None
    finally:
        if db is not None:
            db.close()


@app.command()
@reports_errors
def compare(
    files: Annotated[list[Path], typer.Argument(help="Instance files.")],
    methods_: Annotated[str, typer.Option("--methods", help="M1,M2,... or all.")] = "all",
    time_limit: TimeLimit = None,
    seed: Seed = 0,
    threads: Threads = 1,
    solver: Solver = "highs",
    store: Annotated[Path | None, typer.Option("--store", help="DuckDB file: save each cell, resume.")] = None,
    as_json: AsJson = False,
) -> None:
    """Run methods on instances; print objective, bound, certified and best-found gap, time."""
    from packgap.analysis.compare import compare_instance, result_rows
    from packgap.analysis.store import ResultStore

    check_store(store)
    options = solve_options(time_limit, seed, threads, solver)
    loaded = [registry.load_instance(f) for f in files]
    plan = [(fam, inst, registry.resolve(fam.name, methods_)) for fam, inst in loaded]
    results: list[SolveResult] = []
    db = ResultStore(store) if store is not None else None
    try:
        with progress(disable=as_json) as bar:
            task = bar.add_task("solving", total=sum(len(ms) for _, _, ms in plan))
            for fam, inst, ms in plan:

                def done(r: SolveResult) -> None:
                    bar.update(task, advance=1, description=f"{r.instance}: {r.method} {r.status}")

                results += compare_instance(fam, inst, ms, options, store=db, on_done=done)
    finally:
        if db is not None:
            db.close()
    if as_json:
        sys.stdout.write(jsonio.dumps(result_rows(results)))
    else:
        result_table(results, title="packgap compare")
    if all(r.status == Status.ERROR for r in results):
        raise PackgapError(
            f"every method failed ({', '.join(sorted({r.method for r in results}))}); nothing to compare"
        )


@app.command()
@reports_errors
def schema(
    family_name: Annotated[str, typer.Argument(metavar="FAMILY")],
    part: Annotated[str, typer.Argument(metavar="instance|solution")],
) -> None:
    """The JSON Schema of a family's instance or solution documents, built from its readers."""
    from packgap.analysis.schema import schema as build

    sys.stdout.write(jsonio.dumps(build(family_name, part)))


@app.command()
@reports_errors
def report(
    store: Annotated[Path, typer.Argument(help="DuckDB results file.")],
    by: Annotated[str | None, typer.Option("--by", help="Instance field to group by, e.g. groups.")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a gap figure (PNG) grouped by --by.")] = None,
    rows: Annotated[bool, typer.Option("--rows", help="Every stored row instead of the gap table.")] = False,
    export: Annotated[
        Path | None, typer.Option("--export", help="Write every stored row to a .csv or .parquet file.")
    ] = None,
    profile: Annotated[
        str | None, typer.Option("--profile", help="Performance profile of time or objective (with --plot).")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Gap table (and figure) from stored results; nothing is recomputed."""
    from packgap.analysis.report import gap_table, load_rows, plot_gaps, table_json
    from packgap.analysis.store import ResultStore

    if not store.is_file():
        raise PackgapError(f"no results store at {store}")
    check_store(store)
    check_output(plot, "--plot", PLOT_SUFFIXES)
    check_output(export, "--export", (".csv", ".parquet"))
    if profile is not None and plot is None:
        raise PackgapError("--profile needs --plot (the figure file)")
    db = ResultStore(store)
    try:
        frame = load_rows(db)
    finally:
        db.close()
    if frame.empty:
        raise PackgapError(f"{store} holds no results")
    if export is not None:
        written = write_rescued(export, lambda p: export_rows(frame, p))
        err.print(f"wrote {written} ({len(frame)} rows)")
        return
    if rows:
        show_rows(frame, as_json)
        return
    if profile is not None and plot is not None:
        from packgap.analysis.profiles import plot_profiles

        err.print(f"wrote {write_rescued(plot, lambda p: plot_profiles(frame, profile, p))}")
        return
    if by is not None and by not in frame.columns:
        raise PackgapError(f"--by {by}: not an instance field here (fields: {', '.join(sorted(frame.columns))})")
    if plot is not None:
        if by is None:
            raise PackgapError("--plot needs --by (the instance field on the x axis)")
        err.print(f"wrote {write_rescued(plot, lambda p: plot_gaps(frame, by, p))}")
    if as_json:
        sys.stdout.write(table_json(gap_table(frame, by)) + "\n")
    else:
        out.print(gap_view(gap_table(frame, by)))


#: Columns of ``report --rows`` on screen (``--json`` gives every column).
ROW_COLUMNS = (
    "family",
    "instance",
    "method",
    "seed",
    "status",
    "objective",
    "bound",
    "certified_gap",
    "bound_source",
    "wall_s",
    "created",
)


@ends_on_ctrl_c
def export_rows(frame: Any, path: Path) -> None:
    """Every stored row, long format (benchopt), as CSV or Parquet (written by DuckDB through its
    relation API: the path is never part of an SQL statement)."""
    if path.suffix.lower() == ".csv":
        frame.to_csv(path, index=False)
        return
    import duckdb

    try:
        with duckdb.connect() as con:
            con.from_df(frame).write_parquet(str(path))
    except duckdb.IOException as exc:
        raise OSError(str(exc)) from None


def show_rows(frame: Any, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(frame.to_json(orient="records", indent=2) + "\n")
        return
    table = Table(*ROW_COLUMNS, title=f"{len(frame)} stored rows")
    for row in fmt_rows(frame[list(ROW_COLUMNS)].itertuples(index=False)):
        table.add_row(*row)
    out.print(table)


@app.command()
@reports_errors
def figures(
    names: Annotated[
        list[str] | None, typer.Argument(metavar="[NAME]...", help="Reproductions (default: all).")
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every reproduction (the default without names).")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Small instances: the whole set in minutes.")] = False,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for figures and REPRODUCTION.md.")] = Path("figures"),
    store: Annotated[
        Path | None, typer.Option("--store", help="DuckDB file of computed rows (default OUT/reproductions.duckdb).")
    ] = None,
    recompute: Annotated[bool, typer.Option("--recompute", help="Compute again even when rows are stored.")] = False,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Reproductions computed at once, each in its own process.")
    ] = 1,
    list_only: Annotated[bool, typer.Option("--list", help="List the reproductions and exit.")] = False,
) -> None:
    """Regenerate the papers' reproduced tables and figures (PNG, PDF) and REPRODUCTION.md;
    computed rows are stored, so a rerun only redraws."""
    from packgap.analysis.figures import chosen, reproduce
    from packgap.analysis.reproduction_md import report_markdown
    from packgap.analysis.store import ResultStore

    if all_ and names:
        raise PackgapError("give reproduction names or --all, not both")
    items = chosen(names or [])
    if list_only:
        for r in items:
            out.print(f"{r.name:<22} {r.paper:<9} {r.item:<10} {r.title}", highlight=False, soft_wrap=True)
        return
    check_folder(out_dir, "--out")
    report = out_dir / "REPRODUCTION.md"
    if report.is_dir():
        raise PackgapError(f"--out {out_dir}: {report} is a folder; REPRODUCTION.md is written there")
    store_path = store or out_dir / "reproductions.duckdb"
    check_store(store_path)
    db = ResultStore(store_path)
    try:
        with ticking("reproductions") as tick:
            done = reproduce(items, quick=quick, out=out_dir, store=db, recompute=recompute, tick=tick, workers=workers)
            # REPRODUCTION.md of named reproductions keeps the others already stored for this
            # code and size (an earlier --all into the same folder), redrawn, not recomputed
            others = [r for r in chosen([]) if r.name not in {i.name for i in items}]
            kept = reproduce(others, quick=quick, out=out_dir, store=db, recompute=False, tick=tick, stored_only=True)
    finally:
        db.close()
    order = [r.name for r in chosen([])]
    every = sorted(done + kept, key=lambda d: order.index(d.reproduction.name))
    report.write_text(report_markdown(every, quick), encoding="utf-8")
    for d in done:
        note = "stored rows" if d.reused else "computed"
        err.print(f"{d.reproduction.name}: {note}, {len(d.figures)} figure file(s)", highlight=False)
    err.print(f"wrote {report}")


def gap_view(table: Any) -> Table:
    """A gap table (pandas) as a rich table: each header with its unit, gaps and shares in
    percent, seconds to 3 significant digits, other numbers in six digits."""
    from packgap.analysis.report import UNITS, header

    columns = [str(c) for c in table.columns]
    view = Table(*[header(c) for c in columns], title="gaps")
    rows = [
        [seconds(v) if UNITS.get(c) == "s" else v for c, v in zip(columns, row, strict=True)]
        for row in table.itertuples(index=False)
    ]
    for row in fmt_rows(rows, [UNITS.get(c) == "fraction" for c in columns]):
        view.add_row(*row)
    return view


def show_summary(file: Path, summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        sys.stdout.write(jsonio.dumps(summary))
        return
    table = Table("field", "value", title=str(file))
    for key, value in summary.items():
        table.add_row(key, json.dumps(value, indent=1) if isinstance(value, list | dict) else str(value))
    out.print(table)


def add_dynamic_commands(app: typer.Typer, instances: typer.Typer) -> None:
    """Every command generated from the kits (``packgap.analysis.clidynamic``, ``packgap.analysis.clisweep``)."""
    add_instance_commands(instances, show_summary)
    sweep = typer.Typer(help="Generate instances of a family and solve every method on each.")
    spec_sweep(sweep, gap_view)
    for kit in registry.kits().values():
        sweepable = [g for g in kit.generators if g.target == kit.name and g.size_option is not None]
        if sweepable:
            family_sweep(sweep, kit.name, sweepable[0], gap_view)
    app.add_typer(sweep, name="sweep")
    simulate_command(app)
    demo_command(app)
    add_family_commands(app)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: the typer app plus every kit's generated commands."""
    from packgap.analysis import plugins

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", plugins.PluginWarning)
            plugins.load_plugins(*plugin_arguments(sys.argv[1:] if argv is None else argv))
            plugins.ensure_loaded()
        for warning in caught:
            err.print(f"[yellow]warning:[/yellow] {escape(str(warning.message))}", highlight=False)
        # Once per process: a second main() (tests, notebooks) would register every command again.
        if not any(group.name == "sweep" for group in app.registered_groups):
            add_dynamic_commands(app, instances_app)
    except PackgapError as exc:
        err.print(f"[bold red]error:[/bold red] {escape(str(exc))}", highlight=False)
        sys.exit(2)
    app(args=argv, prog_name="packgap")


if __name__ == "__main__":
    main()
