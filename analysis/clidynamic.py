"""The ``packgap`` commands generated from the kits' declarations (``analysis.kit``).

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

from analysis import registry
from analysis.cliutil import (
    PLOT_SUFFIXES,
    check_output,
    check_store,
    err,
    fmt,
    out,
    progress,
    reports_errors,
    save_json,
    ticking,
)
from analysis.kit import Generator, GeneratorNote, Option, Simulation, TraceBuilder, check_options
from packgap import jsonio
from packgap.errors import PackgapError


def typer_param(option: Option) -> inspect.Parameter:
    """The CLI form of a kit option (default None: not given); minimum enforced by typer (exit 2),
    choices by :func:`~analysis.kit.check_options`."""
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


def _given(values: Mapping[str, Any]) -> dict[str, Any]:
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
            instance = build_instance(gen, _given(values))
        save_json(registry.to_document(gen.target, instance), output)
        err.print(f"wrote {output} ({gen.target}, {instance.name})")
        for note in notes:
            err.print(f"[yellow]note:[/yellow] {note.message}", highlight=False)

    command(app, gen.name, gen.description, body, [OUTPUT, *(typer_param(o) for o in gen.options)])


def _from_trace(app: typer.Typer, builder: TraceBuilder) -> None:
    def body(path: Path, output: Path, traces: str | None, **values: Any) -> None:
        from instances.traces import traces_dir

        check_output(output, "-o")
        opts = check_options(builder.options, _given(values), f"from-trace {builder.name}")
        if not path.exists() and not path.is_absolute():
            path = traces_dir(traces) / path
        if not path.is_file():
            raise PackgapError(f"trace file {path} does not exist")
        built = builder.build(path, {**opts, "traces": traces})
        save_json(registry.to_document(builder.target, built), output)
        err.print(f"wrote {output} ({builder.target}, {built.name})")

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


def _simulate(app: typer.Typer) -> None:
    options = _union([o for k in registry.kits().values() if k.simulation for o in k.simulation.options])

    def body(
        file: Path,
        seed: int,
        time_limit: float | None,
        plot: Path | None,
        store: Path | None,
        as_json: bool,
        **values: Any,
    ) -> None:
        check_output(plot, "--plot", PLOT_SUFFIXES)
        check_store(store)
        doc = registry.load_document(file)
        sim = _simulation_for(doc.kind)
        opts = check_options(sim.options, _given(values), f"simulate on a {doc.kind}")
        if plot is not None and sim.plot is None:
            raise PackgapError(f"--plot: no figure for {doc.kind} runs")
        with ticking("simulating", disable=as_json) as tick:
            started = time.perf_counter()
            document = sim.run(doc.value, opts, seed, time_limit, tick)
            wall = time.perf_counter() - started
        if store is not None:
            store_runs(store, doc, sim, document, {**opts, "seed": seed, "time_limit": time_limit}, wall)
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
        for row in view.rows:
            table.add_row(*(fmt(v) for v in row))
        out.print(table)

    params = [
        FILE,
        param("seed", Annotated[int, typer.Option("--seed", min=0, help="Seed of the run.")], 0),
        param(
            "time_limit",
            Annotated[float | None, typer.Option("--time-limit", help="Wall seconds per exact solve.")],
            None,
        ),
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
    offline methods never compare against an online metric."""
    from analysis.store import ResultStore, instance_digest
    from packgap.result import SolveResult, Status

    digest = instance_digest(doc.to_dict())
    db = ResultStore(path)
    try:
        for name, metrics in sim.run_metrics(document):
            numbers = {
                k: float(v) for k, v in metrics.items() if isinstance(v, int | float) and not isinstance(v, bool)
            }
            result = SolveResult(
                family=doc.kit.name,
                method=f"simulate:{name}",
                instance=doc.value.name,
                status=Status.FEASIBLE,
                objective=None,
                bound=None,
                wall_s=wall,
                solver="packgap-simulate",
                solver_version=packgap_version(),
                seed=int(params["seed"]),
                params=params,
                metrics=numbers,
                solve_s=wall,
            )
            db.append(digest, result, doc.summary())
    finally:
        db.close()
    err.print(f"stored {len(sim.run_metrics(document))} run(s) in {path}")


def packgap_version() -> str:
    import packgap

    return packgap.__version__


def _sweep(app: typer.Typer, family: str, gen: Generator, gap_view: Callable[[Any], Any]) -> None:
    size = gen.size_option
    assert size is not None
    own = [o for o in gen.options if o.name not in (size, "seed")]

    def body(
        store: Path,
        sizes: str,
        seeds: str,
        methods: str,
        time_limit: float | None,
        threads: int,
        workers: int,
        scheduler: str | None,
        **values: Any,
    ) -> None:
        from analysis.report import gap_table, load_rows
        from analysis.store import ResultStore
        from analysis.sweep import Cell, run_sweep
        from solvers.outcome import SolveOptions

        check_store(store)
        fam = registry.family(family)
        chosen = [m.name for m in registry.resolve(family, methods)]
        cells = []
        for n in parse_ints(sizes, "--sizes"):
            for seed in parse_ints(seeds, "--seeds"):
                instance = build_instance(gen, {**_given(values), size: n, "seed": seed})
                cells += [Cell(family, fam.instance_to_dict(instance), m) for m in chosen]
        options = SolveOptions(time_limit=time_limit, threads=threads)
        db = ResultStore(store)
        try:
            with progress() as bar:
                task = bar.add_task("sweep", total=len(cells))

                def done(r: Any, reused: bool) -> None:
                    note = "stored" if reused else str(r.status)
                    bar.update(task, advance=1, description=f"{r.instance}: {r.method} {note}")

                run_sweep(cells, options, db, workers=workers, scheduler=scheduler, on_done=done)
            out.print(gap_view(gap_table(load_rows(db), size)))
        finally:
            db.close()

    flag = "--" + size.replace("_", "-")
    params = [
        param("store", Annotated[Path, typer.Option("--store", help="DuckDB file: every cell saved, reruns resume.")]),
        param("sizes", Annotated[str, typer.Option("--sizes", help=f"Values of {flag}, e.g. 4,6,8 or 4-8.")]),
        param("seeds", Annotated[str, typer.Option("--seeds", help="Instance seeds, e.g. 0-4.")], "0"),
        param("methods", Annotated[str, typer.Option("--methods", help="M1,M2,... or all.")], "all"),
        param(
            "time_limit",
            Annotated[float | None, typer.Option("--time-limit", help="Wall seconds per exact method.")],
            None,
        ),
        param("threads", Annotated[int, typer.Option("--threads", min=1, help="Solver threads.")], 1),
        param("workers", Annotated[int, typer.Option("--workers", min=1, help="Local worker processes.")], 2),
        param("scheduler", Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address.")], None),
        *(typer_param(o) for o in own),
    ]
    text = f"Generate {family} instances (sizes x seeds) and solve every method on each, resumably."
    command(app, family, text, body, params)


def parse_ints(text: str, option: str) -> list[int]:
    """``"4,6,8"`` or ``"0-4"`` (inclusive) or a mix -> sorted unique integers."""
    values: set[int] = set()
    for part in text.split(","):
        lo, dash, hi = part.strip().partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise PackgapError(f"{option}: expected numbers like 4,6,8 or 0-4, got {part.strip()!r}")
        if dash and int(hi) < int(lo):
            raise PackgapError(f"{option}: empty range {part.strip()!r} (write LOW-HIGH)")
        values.update(range(int(lo), int(hi) + 1) if dash else [int(lo)])
    return sorted(values)


def add_dynamic_commands(
    app: typer.Typer,
    instances: typer.Typer,
    *,
    gap_view: Callable[[Any], Any],
    show_summary: Callable[[Path, dict[str, Any], bool], None],
) -> None:
    """Add every command generated from the kits to ``app`` and its ``instances`` group."""
    generate = typer.Typer(no_args_is_help=True, help="Write a seeded instance or trace (same seed, same bytes).")
    for gen in registry.generators().values():
        _generate(generate, gen)
    from_trace = typer.Typer(
        no_args_is_help=True, help="Build an instance from a public trace file, by a documented rule."
    )
    for builder in registry.trace_builders().values():
        _from_trace(from_trace, builder)
    instances.add_typer(generate, name="generate")
    instances.add_typer(from_trace, name="from-trace")
    _show(instances, show_summary)
    sweep = typer.Typer(no_args_is_help=True, help="Generate instances of a family and solve every method on each.")
    for kit in registry.kits().values():
        sweepable = [g for g in kit.generators if g.target == kit.name and g.size_option is not None]
        if sweepable:
            _sweep(sweep, kit.name, sweepable[0], gap_view)
    app.add_typer(sweep, name="sweep")
    _simulate(app)
    for kit in registry.kits().values():
        if kit.commands is not None:
            sub: typer.Typer = kit.commands()
            for info in sub.registered_commands:
                if info.callback is not None:
                    info.callback = reports_errors(info.callback)
            app.add_typer(sub, name=kit.name)
