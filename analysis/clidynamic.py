"""The ``packgap`` commands generated from the kits' declarations (``packgap.analysis.kit``).

``instances generate NAME`` and ``instances from-trace NAME`` get one sub-command per
generator and trace builder, ``sweep FAMILY`` one per family with a sweepable generator,
``instances show`` and ``simulate`` the union of the kits' views and simulation options,
and ``packgap FAMILY ...`` a kit's own commands.
"""

from __future__ import annotations

import inspect
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from packgap import jsonio
from packgap.analysis import registry
from packgap.analysis.cliutil import (
    PLOT_SUFFIXES,
    SOLVER_HELP,
    check_output,
    check_store,
    err,
    fmt_rows,
    out,
    reports_errors,
    save_json,
    solve_options,
)
from packgap.analysis.kit import Generator, GeneratorNote, Option, Simulation, TraceBuilder, check_options, ticking
from packgap.errors import PackgapError
from packgap.fields import MAX_SEED


def typer_param(option: Option) -> inspect.Parameter:
    """The CLI form of a kit option (default None: not given); minimum enforced by typer (exit 2),
    choices by :func:`~packgap.analysis.kit.check_options`."""
    help_text = option.help + (f" One of: {', '.join(option.choices)}." if option.choices else "")
    if option.type is bool:
        kind: Any = Annotated[bool, typer.Option(option.flag, help=help_text)]
        return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=False)
    info = typer.Option(option.flag, help=help_text, min=option.minimum, max=option.maximum)
    kind = Annotated[option.type | None, info]  # type: ignore[name-defined]
    return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=None)


def param(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def command(
    app: typer.Typer, name: str, help_text: str, body: Callable[..., None], params: list[inspect.Parameter]
) -> None:
    """Register ``body(**values)`` as ``name`` with the parameters ``params`` (typer reads the
    signature), expected errors turned into exit 2."""

    def run(**values: Any) -> None:
        body(**values)

    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    run.__doc__ = help_text
    app.command(name, help=help_text)(reports_errors(run))


def given(values: Mapping[str, Any]) -> dict[str, Any]:
    """Options the user gave: None and unset flags (False) are not given."""
    return {k: v for k, v in values.items() if v is not None and v is not False}


OUTPUT = param("output", Annotated[Path, typer.Option("-o", "--output", help="File to write.")])


def build_instance(gen: Generator, given: Mapping[str, Any]) -> Any:
    """``gen.build`` on the given options, after checking names, ranges and required ones."""
    opts = check_options(gen.options, given, f"{gen.name} generator")
    missing = [o for o in gen.required if o not in opts]
    if missing:
        raise PackgapError(f"{gen.name} generator needs " + ", ".join("--" + m.replace("_", "-") for m in missing))
    return gen.build(opts)


def _generate(app: typer.Typer, gen: Generator) -> None:
    def body(output: Path, **values: Any) -> None:
        check_output(output, "-o")
        with warnings.catch_warnings(record=True) as notes:
            warnings.simplefilter("always", GeneratorNote)
            instance = build_instance(gen, given(values))
        save_json(registry.to_document(gen.target, instance), output)
        err.print(f"wrote {output} ({gen.target}, {instance.name})")
        for note in notes:
            err.print(f"[yellow]note:[/yellow] {note.message}", highlight=False)

    command(app, gen.name, gen.description, body, [OUTPUT, *(typer_param(o) for o in gen.options)])


def _from_trace(app: typer.Typer, builder: TraceBuilder, command_name: str = "from-trace") -> None:
    def body(path: Path, output: Path, traces: str | None, **values: Any) -> None:
        from packgap.instances.csv_jobs import CsvNote
        from packgap.instances.traces import user_trace_file

        check_output(output, "-o")
        opts = check_options(builder.options, given(values), f"{command_name} {builder.name}")
        with warnings.catch_warnings(record=True) as notes:
            warnings.simplefilter("always", CsvNote)
            built = builder.build(user_trace_file(path, traces), {**opts, "traces": traces})
        save_json(registry.to_document(builder.target, built), output)
        err.print(f"wrote {output} ({builder.target}, {built.name})")
        for note in notes:
            err.print(f"[yellow]note:[/yellow] {escape(str(note.message))}", highlight=False)

    params = [
        inspect.Parameter(
            "path",
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=Annotated[Path, typer.Argument(help="Trace file (relative: also tried in the trace folder).")],
        ),
        OUTPUT,
        param(
            "traces", Annotated[str | None, typer.Option("--traces", help="Trace folder (else $PACKGAP_TRACES).")], None
        ),
        *(typer_param(o) for o in builder.options),
    ]
    command(app, builder.name, builder.description, body, params)


def _union(options: list[Option]) -> list[Option]:
    """Each option once; two kits declaring one name with two types is a registry error."""
    seen: dict[str, Option] = {}
    for option in options:
        if option.name in seen and seen[option.name].type is not option.type:
            raise PackgapError(f"option {option.flag} is declared with two types by the kits")
        seen.setdefault(option.name, option)
    return list(seen.values())


FILE = inspect.Parameter("file", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[Path, typer.Argument()])
AS_JSON = param("as_json", Annotated[bool, typer.Option("--json", help="Machine-readable output.")], False)


def _show(app: typer.Typer, show_summary: Callable[[Path, dict[str, Any], bool], None]) -> None:
    views = [v for k in registry.kits().values() for v in k.views]

    def body(file: Path, as_json: bool, **flags: bool) -> None:
        doc = registry.load_document(file)
        summary = doc.summary()
        for view in views:
            if not flags.get(view.name):
                continue
            if doc.kind not in view.kinds:
                raise PackgapError(f"--{view.name} applies to {', '.join(view.kinds)} files; {file} is a {doc.kind}")
            summary[view.name] = view.build(doc.value)
        show_summary(file, summary, as_json)

    params = [
        FILE,
        AS_JSON,
        *(param(v.name, Annotated[bool, typer.Option(f"--{v.name}", help=v.help)], False) for v in views),
    ]
    command(
        app, "show", "A readable summary of an instance (with a view flag, the exact models' inputs).", body, params
    )


def _simulation_for(kind: str) -> Simulation:
    for k in registry.kits().values():
        if k.simulation is not None and kind in k.simulation.kinds:
            return k.simulation
    takes = [kind for k in registry.kits().values() if k.simulation for kind in k.simulation.kinds]
    raise PackgapError(f"simulate takes {', '.join(takes)} files; this one is a {kind}")


def simulate_command(app: typer.Typer) -> None:
    options = _union([o for k in registry.kits().values() if k.simulation for o in k.simulation.options])

    def body(
        file: Path,
        seed: int,
        time_limit: float | None,
        solver: str,
        plot: Path | None,
        store: Path | None,
        as_json: bool,
        **values: Any,
    ) -> None:
        check_output(plot, "--plot", PLOT_SUFFIXES)
        check_store(store)
        doc = registry.load_document(file)
        sim = _simulation_for(doc.kind)
        opts = check_options(sim.options, given(values), f"simulate on a {doc.kind}")
        if plot is not None and sim.plot is None:
            raise PackgapError(f"--plot: no figure for {doc.kind} runs")
        extra = {}
        if sim.takes_solver:
            extra["solver"] = solve_options(time_limit, seed, 1, solver).solver
        elif solver != "highs":
            raise PackgapError(f"--solver {solver}: {doc.kind} runs hand no model to an LP / MILP solver")
        with ticking("simulating", disable=as_json) as tick:
            started = time.perf_counter()
            document = sim.run(doc.value, opts, seed, time_limit, tick, **extra)
            wall = time.perf_counter() - started
        if store is not None:
            store_runs(store, doc, sim, document, {**opts, "seed": seed, "time_limit": time_limit, **extra}, wall)
        if plot is not None and sim.plot is not None:
            try:
                sim.plot(document, plot)
                err.print(f"wrote {plot}")
            except OSError as exc:
                spare = save_json(document, Path.cwd() / f"{plot.stem}.json")
                raise PackgapError(f"cannot write {plot} ({exc}); the run is saved in {spare}") from None
        if as_json:
            sys.stdout.write(jsonio.dumps(document))
            return
        from rich.table import Table

        view = sim.table(document)
        table = Table(*view.columns, title=view.title)
        for row in fmt_rows(view.rows):
            table.add_row(*row)
        out.print(table)

    params = [
        FILE,
        param("seed", Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the run.")], 0),
        param(
            "time_limit",
            Annotated[float | None, typer.Option("--time-limit", help="Wall seconds per exact solve.")],
            None,
        ),
        param("solver", Annotated[str, typer.Option("--solver", help=SOLVER_HELP)], "highs"),
        param("plot", Annotated[Path | None, typer.Option("--plot", help="Write the run's figure (PNG).")], None),
        param(
            "store", Annotated[Path | None, typer.Option("--store", help="DuckDB file: append each run's row.")], None
        ),
        AS_JSON,
        *(typer_param(o) for o in options),
    ]
    command(
        app,
        "simulate",
        "Simulate a whole trace over time with a family's online policies; print the metrics.",
        body,
        params,
    )


def store_runs(
    path: Path, doc: registry.Document, sim: Simulation, document: dict[str, Any], params: dict[str, Any], wall: float
) -> None:
    """One row per simulated policy in the results store, beside the offline results:
    method ``simulate:<policy>`` with the run's metrics; no objective, so that gap tables of
    offline methods never compare against an online metric. A plug-in policy's row names its
    module and version as solver."""
    from packgap.analysis import plugins
    from packgap.analysis.store import ResultStore, instance_digest, params_key
    from packgap.result import SolveResult, Status

    digest = instance_digest(doc.to_dict())
    runs = sim.run_metrics(document)
    stored = 0
    db = ResultStore(path)
    try:
        for name, metrics in runs:
            method = f"simulate:{name}"
            if db.find(digest, method, int(params["seed"]), params_key(params)) is not None:
                continue  # the same run of the same file: a rerun adds no duplicate row
            numbers: dict[str, float | None] = {
                k: float(v) for k, v in metrics.items() if isinstance(v, int | float) and not isinstance(v, bool)
            }
            own = plugins.policy(doc.kit.name, name)
            result = SolveResult(
                family=doc.kit.name,
                method=method,
                instance=doc.value.name,
                status=Status.FEASIBLE,
                objective=None,
                bound=None,
                wall_s=wall,
                solver="packgap-simulate" if own is None else own.origin.solver,
                solver_version=packgap_version() if own is None else own.origin.version,
                seed=int(params["seed"]),
                params=params,
                metrics=numbers,
                solve_s=wall,
            )
            db.append(digest, result, doc.summary())
            stored += 1
    finally:
        db.close()
    kept = f", {len(runs) - stored} already there" if stored < len(runs) else ""
    err.print(f"stored {stored} run(s) in {path}{kept}")


def packgap_version() -> str:
    import packgap

    return packgap.__version__


def add_instance_commands(instances: typer.Typer, show_summary: Callable[[Path, dict[str, Any], bool], None]) -> None:
    """``instances generate NAME``, ``instances from-trace NAME`` and ``instances show``."""
    generate = typer.Typer(no_args_is_help=True, help="Write a seeded instance or trace (same seed, same bytes).")
    for gen in registry.generators().values():
        _generate(generate, gen)
    from_trace = typer.Typer(
        no_args_is_help=True, help="Build an instance from a public trace file, by a documented rule."
    )
    for builder in registry.trace_builders().values():
        _from_trace(from_trace, builder)
    from_csv = typer.Typer(
        no_args_is_help=True,
        help="Build an instance from one's own job list CSV (arrival_s, gpus, duration_s or iterations, model).",
    )
    for kit in registry.kits().values():
        if kit.csv_builder is not None:
            _from_trace(from_csv, kit.csv_builder, "from-csv")
    instances.add_typer(generate, name="generate")
    instances.add_typer(from_trace, name="from-trace")
    instances.add_typer(from_csv, name="from-csv")
    _show(instances, show_summary)


def add_family_commands(app: typer.Typer) -> None:
    """``packgap FAMILY ...``: each kit's own commands, expected errors turned into exit 2."""
    for kit in registry.kits().values():
        if kit.commands is not None:
            sub: typer.Typer = kit.commands()
            for info in sub.registered_commands:
                if info.callback is not None:
                    info.callback = reports_errors(info.callback)
            app.add_typer(sub, name=kit.name)
