"""``packgap sweep FAMILY ...`` and ``packgap sweep --spec FILE``: many (instance, method)
cells, each stored the moment it finishes, on a local process pool or a Dask cluster."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from packgap.analysis import registry
from packgap.analysis.clidynamic import build_instance, command, given, param, typer_param
from packgap.analysis.cliutil import SOLVER_HELP, check_store, err, out, progress, reports_errors, solve_options
from packgap.analysis.kit import Generator
from packgap.errors import PackgapError


def family_sweep(app: typer.Typer, family: str, gen: Generator, gap_view: Callable[[Any], Any]) -> None:
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
        solver: str,
        workers: int,
        scheduler: str | None,
        **values: Any,
    ) -> None:
        from packgap.analysis.spec import run_seed
        from packgap.analysis.store import instance_digest
        from packgap.analysis.sweep import Cell

        check_store(store)
        options = solve_options(time_limit, 0, threads, solver)
        fam = registry.family(family)
        chosen = [m.name for m in registry.resolve(family, methods)]
        ns, instance_seeds = parse_ints(sizes, "--sizes"), parse_ints(seeds, "--seeds")
        if len(ns) * len(instance_seeds) > MAX_INSTANCES:
            raise PackgapError(
                f"--sizes x --seeds: {len(ns):,} x {len(instance_seeds):,} instances, each generated and kept "
                f"in memory before solving; at most {MAX_INSTANCES:,} in one sweep"
            )
        cells = []
        for n in ns:
            for seed in instance_seeds:
                document = fam.instance_to_dict(build_instance(gen, {**given(values), size: n, "seed": seed}))
                # each run's seed as a spec with seed = 0 and one repetition derives it, so the two
                # kinds of sweep find each other's cells in one store instead of running them again
                digest = instance_digest(document)
                cells += [Cell(family, document, m, run_seed(0, digest, m, 0)) for m in chosen]
        run_cells(cells, options, store, workers, scheduler, gap_view, size)

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
        param("solver", Annotated[str, typer.Option("--solver", help=SOLVER_HELP)], "highs"),
        param("workers", Annotated[int, typer.Option("--workers", min=1, help="Local worker processes.")], 2),
        param("scheduler", Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address.")], None),
        *(typer_param(o) for o in own),
    ]
    text = f"Generate {family} instances (sizes x seeds) and solve every method on each, resumably."
    command(app, family, text, body, params)


def run_cells(
    cells: list[Any],
    options: Any,
    store: Path,
    workers: int,
    scheduler: str | None,
    gap_view: Callable[[Any], Any],
    by: str | None,
) -> None:
    """Solve the cells not yet stored (progress bar), then print the store's gap table."""
    from packgap.analysis.report import gap_table, load_rows
    from packgap.analysis.store import ResultStore
    from packgap.analysis.sweep import run_sweep

    db = ResultStore(store)
    try:
        with progress() as bar:
            task = bar.add_task("sweep", total=len(cells))

            def done(r: Any, reused: bool) -> None:
                note = "stored" if reused else str(r.status)
                bar.update(task, advance=1, description=f"{r.instance}: {r.method} {note}")

            run_sweep(cells, options, db, workers=workers, scheduler=scheduler, on_done=done)
        out.print(gap_view(gap_table(load_rows(db), by)))
    finally:
        db.close()


def spec_sweep(sweep: typer.Typer, gap_view: Callable[[Any], Any]) -> None:
    """``packgap sweep --spec FILE``: a sweep described in TOML (:mod:`packgap.analysis.spec`)."""

    @sweep.callback(invoke_without_command=True)
    @reports_errors
    def spec_sweep(
        ctx: typer.Context,
        spec: Annotated[Path | None, typer.Option("--spec", help="TOML sweep description (README).")] = None,
        store: Annotated[Path | None, typer.Option("--store", help="DuckDB file (with --spec).")] = None,
        workers: Annotated[int, typer.Option("--workers", min=1, help="Local worker processes.")] = 2,
        scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address.")] = None,
    ) -> None:
        """Generate instances (sizes x seeds) or read traces and solve every method on each,
        resumably: `sweep FAMILY ...` or `sweep --spec FILE --store FILE`."""
        if ctx.invoked_subcommand is not None:
            if spec is not None:
                raise PackgapError("--spec describes the whole sweep; give no FAMILY with it")
            return
        if spec is None:
            err.print(ctx.get_help())
            raise typer.Exit(2)
        if store is None:
            raise PackgapError("--spec needs --store (the DuckDB file every cell is saved to)")
        from packgap.analysis.spec import load_spec
        from packgap.solvers.outcome import SolveOptions

        check_store(store)
        described = load_spec(spec)
        options = SolveOptions(time_limit=described.time_limit, threads=described.threads)
        run_cells(described.cells, options, store, workers, scheduler, gap_view, None)


#: Most instances one ``sweep FAMILY`` generates (all of them are held before the first solve).
MAX_INSTANCES = 10_000


def parse_ints(text: str, option: str) -> list[int]:
    """``"4,6,8"`` or ``"0-4"`` (inclusive) or a mix -> sorted unique integers, at most
    :data:`MAX_INSTANCES` of them (checked before a range is spelt out)."""
    values: set[int] = set()
    for part in text.split(","):
        lo, dash, hi = part.strip().partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise PackgapError(f"{option}: expected numbers like 4,6,8 or 0-4, got {part.strip()!r}")
        if dash and int(hi) < int(lo):
            raise PackgapError(f"{option}: empty range {part.strip()!r} (write LOW-HIGH)")
        span = int(hi) - int(lo) + 1 if dash else 1
        if len(values) + span > MAX_INSTANCES:
            raise PackgapError(
                f"{option}: {part.strip()!r} makes {len(values) + span:,} values, one instance each; "
                f"at most {MAX_INSTANCES:,} in one sweep"
            )
        values.update(range(int(lo), int(hi) + 1) if dash else [int(lo)])
    return sorted(values)
