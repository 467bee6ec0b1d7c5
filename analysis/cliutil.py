"""Pieces every ``packgap`` command shares: consoles, common options, error handling,
progress bars and number formatting."""

from __future__ import annotations

import functools
import json
import math
import numbers
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from packgap import jsonio
from packgap.analysis.console import INTERRUPTED
from packgap.analysis.method import DEFAULT_EXACT_TIME_LIMIT
from packgap.errors import PackgapError
from packgap.fields import MAX_SEED
from packgap.result import SolveResult

#: Width of output that is not a terminal (logs, CI): wide enough that no table is cut.
PIPE_WIDTH = 250


def _console(stream: Any) -> Console:
    width = None if stream.isatty() or os.environ.get("COLUMNS") else PIPE_WIDTH
    return Console(file=stream, width=width)


out = _console(sys.stdout)
err = _console(sys.stderr)

TimeLimit = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        help=f"Wall seconds per exact method, model building included (default {DEFAULT_EXACT_TIME_LIMIT:g} s).",
    ),
]
Seed = Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed recorded in every result.")]
AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
Threads = Annotated[int, typer.Option("--threads", min=1, help="Solver threads (1 = deterministic).")]
SOLVER_HELP = (
    "LP / MILP solver of the exact methods that hand a model to one: highs (default), scip, gurobi, cplex "
    "or xpress (see `packgap solvers`)."
)
Solver = Annotated[str, typer.Option("--solver", help=SOLVER_HELP)]


def solve_options(time_limit: float | None, seed: int, threads: int, solver: str) -> Any:
    """The command's :class:`~packgap.solvers.outcome.SolveOptions`; a solver that is not
    installed fails here, before any work, with the fix."""
    from packgap.solvers import catalogue
    from packgap.solvers.outcome import SolveOptions

    options = SolveOptions(time_limit=time_limit, seed=seed, threads=threads, solver=solver)
    catalogue.require(solver)
    return options


def fail(message: str) -> None:
    err.print(f"[bold red]error:[/bold red] {escape(message)}", highlight=False)
    raise typer.Exit(2)


def reports_errors(command: Callable[..., None]) -> Callable[..., None]:
    """Expected errors become one message on stderr and exit code 2, never a traceback;
    Ctrl-C ends the command with exit code 130 (what finished before is already stored)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except PackgapError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            err.print("[bold red]interrupted[/bold red]: nothing cut short was stored", highlight=False)
            raise typer.Exit(INTERRUPTED) from None

    return wrapper


#: Figure formats matplotlib writes without extra packages.
PLOT_SUFFIXES = (".png", ".pdf", ".svg")


def check_output(path: Path | None, flag: str, suffixes: tuple[str, ...] = ()) -> None:
    """Refuse an output path before any work starts: a missing folder, a folder named as the
    file, or an unknown suffix (of a figure or an export)."""
    if path is None:
        return
    if path.is_dir():
        raise PackgapError(f"{flag} {path}: is a folder; name a file in it")
    if not path.parent.is_dir():
        raise PackgapError(f"{flag} {path}: the folder {path.parent} does not exist")
    if suffixes and path.suffix.lower() not in suffixes:
        raise PackgapError(f"{flag} {path}: unknown file format {path.suffix!r} (use {', '.join(suffixes)})")


def check_folder(path: Path, flag: str) -> None:
    """Create the output folder ``path`` (with its parents) before any work starts, and refuse
    one that cannot be made or written to."""
    if path.exists() and not path.is_dir():
        raise PackgapError(f"{flag} {path}: not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PackgapError(f"{flag} {path}: cannot create the folder ({exc.strerror})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise PackgapError(f"{flag} {path}: the folder is not writable")


def check_store(path: Path | None) -> None:
    """A results store must be a DuckDB file or a new file in an existing folder."""
    if path is None:
        return
    if path.exists() and not path.is_dir():
        with path.open("rb") as handle:
            header = handle.read(12)
        if header and header[8:12] != b"DUCK":
            raise PackgapError(f"--store {path}: not a DuckDB results store (name a new file or an existing store)")
        return
    check_output(path, "--store")


def save_json(document: Any, path: Path) -> Path:
    """Write ``document`` (see :func:`write_rescued`); failing even beside, print it."""
    return write_rescued(path, lambda p: jsonio.write(document, p), lambda: sys.stdout.write(jsonio.dumps(document)))


def write_rescued(path: Path, write: Callable[[Path], object], show: Callable[[], object] | None = None) -> Path:
    """``write(path)``; if that fails after the work is done, write the same beside (in the
    current folder) or, failing that, ``show`` it on stdout, and say where: nothing computed is lost."""
    try:
        write(path)
        return path
    except OSError as exc:
        cause = exc.strerror or str(exc)
    spare = Path.cwd() / f"packgap-rescued-{os.getpid()}-{path.name or 'result'}"
    try:
        write(spare)
    except OSError:
        if show is None:
            raise PackgapError(f"cannot write {path} ({cause}), nor {spare}") from None
        show()
        raise PackgapError(f"cannot write {path} ({cause}); the result is printed above") from None
    raise PackgapError(f"cannot write {path} ({cause}); the result is saved in {spare}") from None


def progress(disable: bool = False) -> Progress:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=err, transient=True, disable=disable)


def fmt(value: Any, pct: bool = False) -> str:
    """One number alone, as :func:`fmt_column` writes it."""
    return fmt_column([value], pct)[0]


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, numbers.Real) and value != value)  # None or NaN


def _number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and not _missing(value)


def fmt_column(values: Sequence[Any], pct: bool = False) -> list[str]:
    """A table column: gaps in percent; a column of integers (seeds, counts, integral
    objectives) as integers; else six significant digits, one decimal from 10^5 on, thousands
    separated throughout (objectives range from 0.04 to 10^7 across families, so one fixed
    precision for a column that mixes them would print the small ones as 0.1)."""
    found = [float(v) for v in values if _number(v)]
    integral = not pct and all(v.is_integer() for v in found)

    def shown(v: float) -> str:
        if pct:
            return f"{v:.2%}"
        if integral:
            return f"{v:.0f}"
        return f"{v:,.1f}" if abs(v) >= 1e5 else f"{v:,.6g}"

    return ["-" if _missing(v) else shown(float(v)) if _number(v) else str(v) for v in values]


def fmt_rows(rows: Iterable[Sequence[Any]], pct: Sequence[bool] = ()) -> list[list[str]]:
    """Rows of a table, each column in its own format (:func:`fmt_column`); ``pct[i]`` marks
    column ``i`` as gaps."""
    columns = list(zip(*rows, strict=True))
    shown = [fmt_column(c, i < len(pct) and pct[i]) for i, c in enumerate(columns)]
    return [list(r) for r in zip(*shown, strict=True)]


def parse_params(items: list[str]) -> dict[str, Any]:
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


def result_table(results: list[SolveResult], title: str, instances: bool = True) -> None:
    """``certified gap``: against the best bound proven on the instance for the method's class
    (``bound source`` names it); ``best-found gap``: against the best objective found. Where a
    result names its class (``scope``), the gap against the best bound valid for every class
    stands beside it. ``own bound`` is the method's own, valid for every class: an exact method
    optimal within its class may prove a lower bound for every class (sharing's exact-bb).
    ``instances``: with a column naming each result's instance."""
    from packgap.analysis.compare import objective_unit

    scoped = any(r.scope for r in results)
    units = sorted({objective_unit(r.family) for r in results} - {""})
    unit = f"\n({'; '.join(units)})" if units else ""
    columns = [
        *(("instance",) if instances else ()),
        "method",
        "status",
        *(("class",) if scoped else ()),
        f"objective{unit}",
        "own bound\n(all classes)",
        "certified\ngap (%)",
        "bound source",
        *(("certified gap,\nall classes (%)",) if scoped else ()),
        "best-found\ngap (%)",
        "seconds\n(s)",
    ]
    table = Table(*columns, title=title)
    rows = [
        (
            *((r.instance,) if instances else ()),
            r.method,
            str(r.status),
            *((r.scope or "all",) if scoped else ()),
            r.objective,
            r.bound,
            r.certified_gap,
            r.bound_source or "-",
            *((r.certified_gap_all_classes,) if scoped else ()),
            r.best_found_gap,
            seconds(r.wall_s),
        )
        for r in results
    ]
    pct = [False] * (4 + instances + scoped) + [True, False] + ([True] if scoped else []) + [True, False]
    for row in fmt_rows(rows, pct):
        table.add_row(*row)
    out.print(table)
    for r in results:
        if r.message and str(r.status) == "error":
            err.print(f"[red]{r.method}[/red]: {escape(r.message)}")


def seconds(value: float | None) -> str:
    """Seconds to 3 significant digits, never in e-notation (0.0000711, 0.0969, 12.3, 1,230)."""
    if _missing(value):
        return "-"
    assert value is not None
    shown = float(f"{value:.3g}")
    if shown == 0 or abs(shown) >= 100:
        return f"{shown:,.0f}"
    return f"{shown:.{2 - math.floor(math.log10(abs(shown)))}f}"
