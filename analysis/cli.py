"""The ``packgap`` command line (typer + rich).

Every expected error (bad file, unknown method, missing solver) prints its message and
exits with code 2; nothing already computed is lost (``compare --store`` keeps each cell).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import packgap
from analysis import generators, inspect
from analysis.compare import compare_instance
from analysis.methods import METHODS, resolve
from analysis.placement_gaps import exact_gaps
from analysis.placement_sim import run_document, simulate_trace
from analysis.report import gap_table, load_rows, plot_gaps
from analysis.run import solve as run_solve
from analysis.simulate import plot_trace_run, simulate_packing
from analysis.store import ResultStore
from analysis.sweep import Cell, run_sweep
from packgap import jsonio
from packgap.errors import PackgapError
from packgap.registry import family, load_document, load_instance
from packgap.result import SolveResult
from solvers.outcome import SolveOptions

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Certified optimality gaps of GPU-cluster packing heuristics."
)
instances_app = typer.Typer(no_args_is_help=True, help="Generate, check and show instance files.")
app.add_typer(instances_app, name="instances")
out = Console()
err = Console(stderr=True)

TimeLimit = Annotated[float | None, typer.Option("--time-limit", help="Seconds per exact method.")]
Seed = Annotated[int, typer.Option("--seed", help="Seed recorded in every result.")]
AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
Threads = Annotated[int, typer.Option("--threads", help="Solver threads (1 = deterministic).")]


def reports_errors(command: Callable[..., None]) -> Callable[..., None]:
    """Expected errors become one message on stderr and exit code 2, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except PackgapError as exc:
            err.print(f"[bold red]error:[/bold red] {escape(str(exc))}", highlight=False)
            raise typer.Exit(2) from None

    return wrapper


def _version(value: bool) -> None:
    if value:
        out.print(f"packgap {packgap.__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """packgap: heuristics vs exact optima for GPU-cluster scheduling."""


@app.command()
@reports_errors
def methods(
    family_name: Annotated[str | None, typer.Argument(metavar="FAMILY")] = None,
    as_json: AsJson = False,
) -> None:
    """List registered methods (of one family), one line each; --json adds their parameters."""
    names = [family(family_name).name] if family_name else sorted(METHODS)
    listed = [m for fam in names for m in METHODS.get(fam, {}).values()]
    if as_json:
        rows = [
            {
                "family": m.family,
                "method": m.name,
                "exact": m.exact,
                "description": m.description,
                "parameters": dict(m.defaults),
            }
            for m in listed
        ]
        sys.stdout.write(jsonio.dumps(rows))
        return
    for m in listed:
        out.print(
            f"{m.family:<10} {m.name:<18} {'exact' if m.exact else 'heuristic':<9} {m.description}",
            highlight=False,
            soft_wrap=True,
        )


@instances_app.command("generate")
@reports_errors
def instances_generate(
    name: Annotated[str, typer.Argument(metavar="GENERATOR", help="planning, packing, placement or synergy.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="File to write.")],
    seed: Seed = 0,
    groups: Annotated[int | None, typer.Option(help="planning: number of job groups.")] = None,
    jobs: Annotated[int | None, typer.Option(help="packing, placement: number of jobs.")] = None,
    gpus: Annotated[int | None, typer.Option(help="placement: GPUs in the cluster.")] = None,
    gpu_types: Annotated[str | None, typer.Option(help="planning, packing: NAME:COUNT,... GPU mix.")] = None,
    tardiness_weight: Annotated[float | None, typer.Option(help="planning: weight of tardiness.")] = None,
    rate: Annotated[float | None, typer.Option(help="synergy: Poisson arrivals per hour (default 10).")] = None,
) -> None:
    """Write a seeded instance or cluster trace (same seed, same bytes)."""
    target = generators.generator(name).target
    instance = generators.generate(
        name,
        {
            "rate": rate,
            "seed": seed,
            "groups": groups,
            "jobs": jobs,
            "gpus": gpus,
            "gpu_types": gpu_types,
            "tardiness_weight": tardiness_weight,
        },
    )
    jsonio.write(generators.to_document(target, instance), output)
    err.print(f"wrote {output} ({target}, {instance.name})")


@instances_app.command("from-trace")
@reports_errors
def instances_from_trace(
    kind: Annotated[str, typer.Argument(help="Trace kind: " + ", ".join(generators.TRACE_BUILDERS))],
    path: Annotated[Path, typer.Argument(help="Trace file (relative paths also tried in the trace folder).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="File to write.")],
    seed: Seed = 0,
    max_jobs: Annotated[int | None, typer.Option(help="Keep only the first N jobs.")] = None,
    gpu_types: Annotated[str | None, typer.Option(help="NAME:COUNT,... cluster (muri).")] = None,
    gpu_factors: Annotated[
        Path | None, typer.Option("--gpu-factors", help="pal-sia: blox per-GPU factor table (else sampled).")
    ] = None,
    replay: Annotated[str | None, typer.Option("--replay", help="pal-sia: paper (default) or blox.")] = None,
    traces: Annotated[str | None, typer.Option("--traces", help="Trace folder (else $PACKGAP_TRACES).")] = None,
) -> None:
    """Build an instance (or cluster trace) from a public trace file, by a documented rule."""
    opts = {"seed": seed, "max_jobs": max_jobs, "gpu_types": gpu_types, "gpu_factors": gpu_factors, "replay": replay}
    built = generators.from_trace(kind, path, opts, traces)
    target = generators.TRACE_BUILDERS[kind].family
    jsonio.write(generators.to_document(target, built), output)
    err.print(f"wrote {output} ({target}, {built.name})")


@instances_app.command("check")
@reports_errors
def instances_check(file: Path) -> None:
    """Exit 0 when FILE is a valid instance or cluster trace; else list every problem, exit 2."""
    doc = load_document(file)
    out.print(f"{file}: valid {doc.kind} {'trace' if doc.family is None else 'instance'} {doc.value.name!r}")


@instances_app.command("show")
@reports_errors
def instances_show(
    file: Path,
    as_json: AsJson = False,
    groups: Annotated[bool, typer.Option("--groups", help="packing: every feasible group's timeline.")] = False,
    bins: Annotated[bool, typer.Option("--bins", help="placement: PAL's PM-score bins and chosen K.")] = False,
) -> None:
    """A readable summary of an instance (with --groups / --bins, the exact models' inputs)."""
    doc = load_document(file)
    summary: dict[str, Any] = doc.summary()
    if groups:
        summary["groups"] = inspect.packing_groups(doc.value)
    if bins:
        summary["bins"] = inspect.placement_bins(doc.value)
    if as_json:
        sys.stdout.write(jsonio.dumps(summary))
        return
    table = Table("field", "value", title=str(file))
    for key, value in summary.items():
        table.add_row(key, json.dumps(value, indent=1) if isinstance(value, list | dict) else str(value))
    out.print(table)


def _parse_params(items: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise PackgapError(f"--param: expected NAME=VALUE, got {item!r}")
        try:
            params[key] = json.loads(text)
        except json.JSONDecodeError:
            params[key] = text
    return params


@app.command()
@reports_errors
def solve(
    file: Path,
    method: Annotated[str, typer.Option("--method", "-m", help="Method name (see `packgap methods`).")],
    time_limit: TimeLimit = None,
    seed: Seed = 0,
    threads: Threads = 1,
    param: Annotated[list[str] | None, typer.Option("--param", help="Method parameter NAME=VALUE.")] = None,
    as_json: AsJson = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the result JSON here.")] = None,
) -> None:
    """Solve one instance with one method; the objective is the evaluator's."""
    fam, instance = load_instance(file)
    options = SolveOptions(time_limit=time_limit, seed=seed, threads=threads)
    result = run_solve(fam, instance, resolve(fam.name, method)[0], options=options, params=_parse_params(param or []))
    if output is not None:
        jsonio.write(result.to_dict(), output)
    if as_json:
        sys.stdout.write(jsonio.dumps(result.to_dict()))
    else:
        _print_table([result], title=str(file))


@app.command()
@reports_errors
def compare(
    files: Annotated[list[Path], typer.Argument(help="Instance files.")],
    methods_: Annotated[str, typer.Option("--methods", help="M1,M2,... or all.")] = "all",
    time_limit: TimeLimit = None,
    seed: Seed = 0,
    threads: Threads = 1,
    store: Annotated[Path | None, typer.Option("--store", help="DuckDB file: save each cell, resume.")] = None,
    as_json: AsJson = False,
) -> None:
    """Run methods on instances; print objective, bound, certified and primal gap, time."""
    loaded = [load_instance(f) for f in files]
    plan = [(fam, inst, resolve(fam.name, methods_)) for fam, inst in loaded]
    options = SolveOptions(time_limit=time_limit, seed=seed, threads=threads)
    results: list[SolveResult] = []
    db = ResultStore(store) if store is not None else None
    try:
        with _progress(disable=as_json) as progress:
            task = progress.add_task("solving", total=sum(len(ms) for _, _, ms in plan))
            for fam, inst, ms in plan:

                def done(r: SolveResult) -> None:
                    progress.update(task, advance=1, description=f"{r.instance}: {r.method} {r.status}")

                results += compare_instance(fam, inst, ms, options, store=db, on_done=done)
    finally:
        if db is not None:
            db.close()
    if as_json:
        sys.stdout.write(jsonio.dumps([r.to_dict() for r in results]))
    else:
        _print_table(results, title="packgap compare")


@app.command()
@reports_errors
def sweep(
    family_name: Annotated[str, typer.Argument(metavar="FAMILY")],
    store: Annotated[Path, typer.Option("--store", help="DuckDB file: every cell saved, reruns resume.")],
    sizes: Annotated[str, typer.Option("--sizes", help="Instance sizes, e.g. 4,6,8 or 4-8.")],
    seeds: Annotated[str, typer.Option("--seeds", help="Instance seeds, e.g. 0-4.")] = "0",
    methods_: Annotated[str, typer.Option("--methods", help="M1,M2,... or all.")] = "all",
    gpus: Annotated[int | None, typer.Option(help="placement: GPUs in the cluster.")] = None,
    gpu_types: Annotated[str | None, typer.Option(help="planning, packing: NAME:COUNT,... GPU mix.")] = None,
    time_limit: TimeLimit = None,
    threads: Threads = 1,
    workers: Annotated[int, typer.Option("--workers", help="Local worker processes.")] = 2,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address.")] = None,
) -> None:
    """Generate instances (sizes x seeds) and solve every method on each, resumably."""
    gen = generators.generator(family(family_name).name)
    chosen = [m.name for m in resolve(family_name, methods_)]
    cells = []
    for size in generators.parse_ints(sizes, "--sizes"):
        for seed in generators.parse_ints(seeds, "--seeds"):
            opts = {gen.size_option: size, "seed": seed, "gpus": gpus, "gpu_types": gpu_types}
            instance = generators.generate(family_name, opts)
            doc = family(family_name).instance_to_dict(instance)
            cells += [Cell(family_name, doc, m) for m in chosen]
    options = SolveOptions(time_limit=time_limit, threads=threads)
    db = ResultStore(store)
    try:
        with _progress() as progress:
            task = progress.add_task("sweep", total=len(cells))

            def done(r: SolveResult, reused: bool) -> None:
                note = "stored" if reused else str(r.status)
                progress.update(task, advance=1, description=f"{r.instance}: {r.method} {note}")

            run_sweep(cells, options, db, workers=workers, scheduler=scheduler, on_done=done)
        out.print(_gap_table(load_rows(db), gen.size_option))
    finally:
        db.close()


@app.command()
@reports_errors
def report(
    store: Annotated[Path, typer.Argument(help="DuckDB results file.")],
    by: Annotated[str | None, typer.Option("--by", help="Instance field to group by, e.g. groups.")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a gap figure (PNG) grouped by --by.")] = None,
    as_json: AsJson = False,
) -> None:
    """Gap table (and figure) from stored results; nothing is recomputed."""
    if not store.is_file():
        raise PackgapError(f"no results store at {store}")
    db = ResultStore(store)
    try:
        frame = load_rows(db)
    finally:
        db.close()
    if frame.empty:
        raise PackgapError(f"{store} holds no results")
    if by is not None and by not in frame.columns:
        raise PackgapError(f"--by {by}: not an instance field here (fields: {', '.join(sorted(frame.columns))})")
    if plot is not None:
        if by is None:
            raise PackgapError("--plot needs --by (the instance field on the x axis)")
        plot_gaps(frame, by, plot)
        err.print(f"wrote {plot}")
    if as_json:
        sys.stdout.write(gap_table(frame, by).to_json(orient="records", indent=2) + "\n")
    else:
        out.print(_gap_table(frame, by))


@app.command()
@reports_errors
def simulate(
    file: Path,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="cluster trace: fifo, las or srtf.")] = None,
    placement: Annotated[
        str | None, typer.Option("--placement", help="cluster trace: pal, pm-first, packed-sticky, ..., exact.")
    ] = None,
    pipeline: Annotated[
        str | None, typer.Option("--pipeline", help="packing: pipeline(s), e.g. dab+mchp or all.")
    ] = None,
    interval: Annotated[float | None, typer.Option("--interval", help="packing: seconds between re-plans.")] = None,
    on_events: Annotated[bool, typer.Option("--on-events", help="packing: also re-plan at arrivals/ends.")] = False,
    reference: Annotated[
        str | None, typer.Option("--reference", help="packing: exact method for the offline optimum (small N).")
    ] = None,
    round_gaps: Annotated[
        int | None, typer.Option("--round-gaps", help="cluster trace: solve every N-th round exactly, report gaps.")
    ] = None,
    seed: Seed = 0,
    time_limit: TimeLimit = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write the run's figure (PNG).")] = None,
    as_json: AsJson = False,
) -> None:
    """Simulate a trace over time: a cluster trace round by round (PAL), or a packing
    instance online (CUCKOO); print the metrics (and a bound where one exists)."""
    doc = load_document(file)
    packing_only = {
        "--pipeline": pipeline,
        "--interval": interval,
        "--reference": reference,
        "--on-events": on_events or None,
    }
    trace_only = {"--scheduler": scheduler, "--placement": placement, "--round-gaps": round_gaps}
    if doc.kind == "cluster-trace":
        _reject(packing_only, "a cluster trace")
        _simulate_trace(doc.value, scheduler or "fifo", placement or "pal", seed, time_limit, round_gaps, plot, as_json)
    elif doc.kind == "packing":
        _reject(trace_only, "a packing instance")
        _simulate_packing(doc.value, pipeline or "all", interval, on_events, reference, time_limit, plot, as_json)
    else:
        raise PackgapError(f"simulate takes a cluster trace or a packing instance; {file} is a {doc.kind} instance")


def _reject(options: dict[str, Any], what: str) -> None:
    given = [name for name, value in options.items() if value is not None]
    if given:
        raise PackgapError(f"{', '.join(given)} do(es) not apply to {what}")


def _simulate_trace(
    trace: Any,
    scheduler: str,
    placement: str,
    seed: int,
    time_limit: float | None,
    every: int | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    if every is not None and every < 1:
        raise PackgapError(f"--round-gaps must be >= 1, got {every}")
    options = SolveOptions(time_limit=time_limit or 10.0)
    rounds: list[Any] = []
    with _progress(disable=as_json) as progress:
        task = progress.add_task(f"{placement}: simulating", total=None)

        def observe(instance: Any, solution: Any) -> None:
            progress.update(task, advance=1, description=f"{placement}: placed round {instance.name}")
            if every is not None:
                rounds.append((instance, solution))

        result = simulate_trace(trace, scheduler, placement, seed=seed, options=options, observe=observe)
        if every is not None:
            kept = rounds[::every]
            progress.update(task, completed=0, total=len(kept), description="exact rounds")
            gaps = exact_gaps(kept, options, on_done=lambda: progress.update(task, advance=1))
    document = run_document(trace, result, scheduler, placement, seed)
    if every is not None:
        document["round_gaps"] = [
            {
                "round": g.round,
                "jobs": g.jobs,
                "objective": g.objective,
                "exact": g.exact,
                "bound": g.bound,
                "status": str(g.status),
                "primal_gap": g.primal_gap,
                "certified_gap": g.certified_gap,
            }
            for g in gaps
        ]
        primal = [g.primal_gap for g in gaps if g.primal_gap is not None]
        document["metrics"] |= {
            "rounds_solved": float(len(gaps)),
            "rounds_optimal": float(sum(g.status == "optimal" for g in gaps)),
            "mean_round_gap": sum(primal) / len(primal) if primal else None,
            "max_round_gap": max(primal, default=None),
        }
    if plot is not None:
        plot_trace_run(document, plot)
    if as_json:
        sys.stdout.write(jsonio.dumps(document))
        return
    table = Table("metric", "value", title=f"{trace.name}: {scheduler} + {placement} ({trace.replay})")
    for key, value in document["metrics"].items():
        table.add_row(key, _fmt(value))
    out.print(table)


def _simulate_packing(
    instance: Any,
    pipeline: str,
    interval: float | None,
    on_events: bool,
    reference: str | None,
    time_limit: float | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    document = simulate_packing(
        instance,
        pipeline,
        interval_s=60.0 if interval is None else interval or None,
        on_events=on_events,
        reference=reference,
        time_limit=time_limit,
        plot=plot,
    )
    if as_json:
        sys.stdout.write(jsonio.dumps(document))
        return
    keys = ("mean_jct_s", "p99_jct_s", "deadline_satisfaction", "late_jobs", "makespan_s", "max_queue", "mean_queue")
    table = Table("pipeline", *keys, title=f"{instance.name} online")
    for run in document["pipelines"]:
        table.add_row(run["pipeline"], *[_fmt(run["metrics"][k]) for k in keys])
    for ref in document["references"]:
        table.add_row(escape(f"{ref['kind']} ({ref['source']})"), _fmt(ref["mean_jct_s"]), *["" for _ in keys[1:]])
    out.print(table)


def _gap_table(frame: Any, by: str | None) -> Table:
    table = gap_table(frame, by)
    view = Table(*[str(c) for c in table.columns], title="gaps")
    for row in table.itertuples(index=False):
        view.add_row(
            *[
                _fmt(v, pct="gap" in c) if isinstance(v, float) else str(v)
                for c, v in zip(table.columns, row, strict=True)
            ]
        )
    return view


def _progress(disable: bool = False) -> Progress:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=err, transient=True, disable=disable)


def _fmt(value: float | None, pct: bool = False) -> str:
    """Six significant digits (objectives range from 0.04 to 10^7 across families)."""
    if value is None or value != value:  # None or NaN: nothing to show
        return "-"
    if pct:
        return f"{100 * value:.2f}%"
    return f"{value:,.1f}" if abs(value) >= 1e5 else f"{value:.6g}"


def _print_table(results: list[SolveResult], title: str) -> None:
    table = Table("instance", "method", "status", "objective", "bound", "gap", "primal gap", "seconds", title=title)
    for r in results:
        table.add_row(
            r.instance,
            r.method,
            str(r.status),
            _fmt(r.objective),
            _fmt(r.bound),
            _fmt(r.gap, pct=True),
            _fmt(r.primal_gap, pct=True),
            f"{r.wall_s:.3f}",
        )
    out.print(table)
    for r in results:
        if r.message and str(r.status) == "error":
            err.print(f"[red]{r.method}[/red]: {r.message}")


def main() -> None:
    """Console entry point."""
    app()
