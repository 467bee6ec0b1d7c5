"""The one record a family exports (:class:`FamilyKit`): everything the generic core needs.

The generic core (``packgap.analysis.cli``, ``run``, ``compare``, ``sweep``, ``report``) names no
family; it iterates over the kits of :mod:`packgap.analysis.registry`. A kit lives in
``analysis/<family>/__init__.py`` and declares its hub family, its methods, its instance
generators and trace builders with their options, the extra file kinds it reads (e.g. a
cluster trace), its ``instances show`` views, its online simulator, the paper tables and
figures it reproduces, its own sub-commands and the small instance ``packgap demo`` shows.

Kits are imported when the CLI starts, so a kit module imports nothing heavy at import
time (no NumPy, Pyomo, OR-Tools, scikit-learn, SciPy, matplotlib, not even its family's hub
package): the callables it declares import what they need when they run
(``tests/analysis/test_cli_start.py``).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from packgap.analysis.method import Method
from packgap.errors import PackgapError
from packgap.family import Family
from packgap.solvers.outcome import SolveOptions

#: Progress callback of long work: ``tick(description, advance, total)``; total None keeps it.
Tick = Callable[[str, int, "int | None"], None]


def no_tick(description: str, advance: int = 1, total: int | None = None) -> None:
    """A :data:`Tick` that shows nothing."""


@contextmanager
def ticking(description: str, disable: bool = False) -> Iterator[Tick]:
    """A progress bar on standard error driven by a :data:`Tick` (the CLI's and kits' commands)."""
    from packgap.analysis.cliutil import progress

    with progress(disable=disable) as bar:
        task = bar.add_task(description, total=None)

        def tick(text: str, advance: int = 1, total: int | None = None) -> None:
            if total is not None:
                bar.update(task, completed=0, total=total, description=text)
            bar.update(task, advance=advance, description=text)

        yield tick


@dataclass(frozen=True)
class Option:
    """One option of a generator, trace builder or simulation; ``--name-with-dashes`` on the CLI.

    ``type`` is ``int``, ``float``, ``str``, ``bool`` (a flag) or ``Path``; ``minimum`` and
    ``maximum`` bound numbers (inclusive; a size option names the largest instance that fits
    in memory) and ``choices`` bounds strings, all checked by the CLI and by
    :func:`check_options` before any work starts.
    """

    name: str
    type: type
    help: str
    minimum: float | None = None
    choices: tuple[str, ...] = ()
    maximum: float | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


def work_limited(work: float, nodes: int = 10_000) -> SolveOptions:
    """Solver options for reproductions: the same answer on every run (issue 19.5). The
    search stops on work (CP-SAT's deterministic time ``work``, HiGHS's ``nodes``), one thread,
    seed 0; the wall-clock limit, ten times ``work`` plus a minute, is only a backstop
    against a runaway solve and says so in the result's status when it binds."""
    return SolveOptions(time_limit=10 * work + 60.0, deterministic_time=work, node_limit=nodes)


#: The seed option every generator and most trace builders take (NumPy takes 0 .. 2^64 - 1).
SEED = Option("seed", int, "Seed (same seed, same bytes).", minimum=0, maximum=2**63 - 1)
#: Largest instance a generator builds: every family's models stay within a few GB below it.
MAX_SIZE = 100_000


def _has_type(option: Option, value: Any) -> bool:
    # bool is an int subclass, yet ``max_jobs = true`` in a sweep spec is a mistake.
    if option.type is bool or isinstance(value, bool):
        return option.type is bool and isinstance(value, bool)
    if option.type is float:
        return isinstance(value, int | float)
    if option.type is Path:
        return isinstance(value, str | Path)
    return isinstance(value, option.type)


def check_options(declared: tuple[Option, ...], given: Mapping[str, Any], what: str) -> dict[str, Any]:
    """The given options (None = not given) checked against ``declared``: unknown names, values
    of another type, numbers out of bounds and strings outside their choices fail with the flag named."""
    by_name = {o.name: o for o in declared}
    extra = sorted(k for k, v in given.items() if v is not None and k not in by_name)
    if extra:
        flags = ", ".join("--" + e.replace("_", "-") for e in extra)
        raise PackgapError(f"{what} does not take {flags}")
    for name, value in given.items():
        option = by_name.get(name)
        if option is None or value is None:
            continue
        if not _has_type(option, value):
            raise PackgapError(f"{option.flag} expects {option.type.__name__}, got {type(value).__name__} {value!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise PackgapError(f"{option.flag} must be a finite number, got {value}")
        if option.minimum is not None and value < option.minimum:
            raise PackgapError(f"{option.flag} must be >= {option.minimum:g}, got {value}")
        if option.maximum is not None and value > option.maximum:
            raise PackgapError(f"{option.flag} must be <= {option.maximum:g}, got {value}")
        if option.choices and value not in option.choices:
            raise PackgapError(f"{option.flag} must be one of {', '.join(option.choices)}, got {value!r}")
    return {k: v for k, v in given.items() if v is not None}


class GeneratorNote(UserWarning):
    """What a generator tells the user about the instance it built (e.g. jobs that did not
    fit); the CLI prints it next to the file it wrote."""


@dataclass(frozen=True)
class Generator:
    """A seeded instance generator: ``build(options) -> instance``, same seed, same bytes.

    ``target`` is the document kind it writes (the family's name or a kind of
    ``FamilyKit.documents``); ``size_option`` is what ``packgap sweep --sizes`` varies (None:
    the generator is not swept); ``example`` holds the options of a small instance, which the
    common method tests solve with every method (default: ``size_option`` = 4).
    """

    name: str
    description: str
    target: str
    build: Callable[[Mapping[str, Any]], Any]
    options: tuple[Option, ...]
    required: tuple[str, ...] = ()
    size_option: str | None = None
    example: Mapping[str, Any] | None = None

    def example_options(self) -> dict[str, Any]:
        """``example``, or else each required option at a small value (its first choice, or 4)."""
        if self.example is not None:
            return dict(self.example)
        by_name = {o.name: o for o in self.options}
        return {
            name: by_name[name].choices[0] if by_name[name].choices else max(4, int(by_name[name].minimum or 0))
            for name in self.required
        }


@dataclass(frozen=True)
class TraceBuilder:
    """``build(path, options) -> instance`` from a public trace file, by a documented rule."""

    name: str
    description: str
    target: str
    build: Callable[[Path, Mapping[str, Any]], Any]
    options: tuple[Option, ...]


@dataclass(frozen=True)
class DocumentKind:
    """A file kind other than the family's instances (e.g. PAL's cluster trace): ``module``
    holds its ``SCHEMA``, ``VERSION``, ``from_dict``, ``to_dict`` and ``summary``, imported
    when a file is read or written, not when the CLI starts (issue 20.5)."""

    kind: str
    module: str

    def _part(self, name: str) -> Any:
        return getattr(importlib.import_module(self.module), name)

    @property
    def schema(self) -> str:
        schema: str = self._part("SCHEMA")
        return schema

    @property
    def version(self) -> int:
        version: int = self._part("VERSION")
        return version

    def from_dict(self, document: Mapping[str, Any]) -> Any:
        return self._part("from_dict")(document)

    def to_dict(self, value: Any) -> dict[str, Any]:
        document: dict[str, Any] = self._part("to_dict")(value)
        return document

    def summary(self, value: Any) -> dict[str, Any]:
        summary: dict[str, Any] = self._part("summary")(value)
        return summary


@dataclass(frozen=True)
class View:
    """``packgap instances show FILE --NAME``: ``build(value)`` is added to the summary."""

    name: str
    help: str
    kinds: tuple[str, ...]
    build: Callable[[Any], Any]


@dataclass(frozen=True)
class SimulationTable:
    """What the CLI prints of a simulation document: a title, column names and rows."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class Simulation:
    """``packgap simulate FILE``: an online run over a whole trace of one of ``kinds``.

    ``run(value, options, seed, time_limit, tick)`` returns a JSON-ready document with a
    ``metrics`` mapping (or a list of runs, each with its own); ``table`` renders it, and
    ``plot(document, path)`` draws it when the user asks for ``--plot``. ``runs(document)``
    lists (policy name, metrics) per run for ``simulate --store`` (default: the document's
    ``metrics`` under the name in its ``policy`` or ``placement`` field). A simulation whose
    exact solves hand models to an LP / MILP solver ``takes_solver``: ``run`` then also takes
    ``solver=`` (a name of :mod:`packgap.solvers.catalogue`). ``policies`` names the
    simulator's own online policies: a plug-in policy (:mod:`packgap.analysis.plugins`) takes
    none of these names.
    """

    kinds: tuple[str, ...]
    options: tuple[Option, ...]
    run: Callable[..., dict[str, Any]]
    table: Callable[[dict[str, Any]], SimulationTable]
    plot: Callable[[dict[str, Any], Path], Path] | None = None
    runs: Callable[[dict[str, Any]], list[tuple[str, dict[str, Any]]]] | None = None
    takes_solver: bool = False
    policies: tuple[str, ...] = ()

    def run_metrics(self, document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        if self.runs is not None:
            return self.runs(document)
        return [(str(document.get("policy") or document.get("placement") or "run"), document["metrics"])]


@dataclass(frozen=True)
class Direction:
    """The paper's claim about one number: ``ours op than``.

    ``op`` is ``<`` or ``>``, with ``than`` a number or the quantity of another value of the
    same reproduction (compared with that value's ours); or ``=``: ours equals the paper's
    value within ``tolerance`` (relative; absolute when the paper's value is 0).
    """

    op: str
    than: float | str | None = None
    tolerance: float = 0.0

    def __post_init__(self) -> None:
        if self.op not in ("<", ">", "="):
            raise PackgapError(f"direction: op must be <, > or =, got {self.op!r}")
        if (self.op == "=") != (self.than is None):
            raise PackgapError("direction: '=' compares with the paper's value, '<' and '>' need a 'than'")

    @property
    def text(self) -> str:
        if self.op == "=":
            return "= paper" + (f" ±{self.tolerance:.0%}" if self.tolerance else "")
        than = f"{self.than:g}" if isinstance(self.than, float | int) else self.than
        return f"{self.op} {than}"


def equal(tolerance: float = 0.0) -> Direction:
    return Direction("=", tolerance=tolerance)


def side(paper: float, pivot: float) -> Direction:
    """Ours on the same side of ``pivot`` as the paper's value (e.g. a ratio above 1)."""
    return Direction("<" if paper < pivot else ">", float(pivot))


def versus(values: Sequence[PaperValue], reference: str) -> list[PaperValue]:
    """Each value with a paper number ordered against ``reference`` (a quantity among them) as
    the paper orders the two: e.g. every policy's JCT against SJF-BSBF's."""
    ref = next(v for v in values if v.quantity == reference)
    if ref.paper is None:
        raise PackgapError(f"direction: {reference!r} has no paper value to order against")
    return [
        replace(v, direction=Direction("<" if v.paper < ref.paper else ">", reference))
        if v is not ref and v.paper is not None and v.paper != ref.paper
        else v
        for v in values
    ]


@dataclass(frozen=True)
class PaperValue:
    """One reproduced number: the paper's value beside ours (``REPRODUCTION.md`` row).

    ``direction`` is what the paper claims of it (:class:`Direction`; None: nothing
    compared), from which the report computes whether ours agrees in direction; the report also
    grades the magnitude, ours within a tolerance of the paper's value (the paper's own
    ``error_bar``, an absolute half-width in ``unit``, where it prints one; else the tolerance
    of an ``=`` direction; else 25 % relative, :mod:`packgap.analysis.agreement`). ``note``
    (always shown) or ``cause`` (shown where ours does not agree in direction or in magnitude)
    gives the measured cause. ``measured`` marks a number that depends on the machine (a
    timing, or a gap against a bound cut by a wall-clock limit): the report keeps it out of the
    part that is the same on every run. ``by_construction`` marks a value equal to the paper's
    by its definition (a system normalised by itself): shown, never counted as agreement.
    """

    item: str
    quantity: str
    paper: float | None
    ours: float | None
    unit: str = ""
    note: str = ""
    direction: Direction | None = None
    measured: bool = False
    #: The measured cause of a disagreement: added to the note where ours does not agree.
    cause: str = ""
    error_bar: float | None = None
    by_construction: bool = False

    @property
    def ratio(self) -> float | None:
        if self.paper is None or self.ours is None or self.paper == 0:
            return None
        return self.ours / self.paper


@dataclass(frozen=True)
class Reproduction:
    """A reproduced table or figure of a paper, split so that drawing is a function of rows.

    ``compute(quick, tick)`` does the expensive work and returns JSON-ready rows (stored,
    so a rerun recomputes nothing); ``draw(rows, out_dir)`` writes the figures (PNG and PDF)
    and returns their paths; ``compare(rows)`` gives the paper-vs-ours values.
    ``quick`` runs small instances (the whole set in minutes on 2 cores). ``size(quick)`` gives
    the sizes ``compute`` runs (jobs, seeds, ...): printed beside every row, and with the quick
    flag and the package's source digest the key of the stored rows.
    """

    name: str
    paper: str
    item: str
    title: str
    compute: Callable[[bool, Tick], list[dict[str, Any]]]
    draw: Callable[[Sequence[Mapping[str, Any]], Path], list[Path]]
    compare: Callable[[Sequence[Mapping[str, Any]]], list[PaperValue]]
    size: Callable[[bool], Mapping[str, Any]] = lambda quick: {}

    def params(self, quick: bool) -> dict[str, Any]:
        """What the stored rows are keyed by, besides the name and the source digest."""
        return {"quick": quick, **self.size(quick)}


@dataclass(frozen=True)
class Demo:
    """What ``packgap demo`` shows of a family: one small generated instance, solved by the
    paper's heuristics and an exact method within seconds.

    ``title`` names the system and paper (e.g. "SJF-BSBF: GPU sharing"); ``generator`` is the
    name of one of the kit's generators and ``options`` its options; ``methods`` the registered
    methods shown, exact ones included; ``time_limit`` the wall seconds per exact method;
    ``note`` is printed under the table (e.g. which bound certifies which gap).
    """

    title: str
    generator: str
    options: Mapping[str, Any]
    methods: tuple[str, ...]
    time_limit: float = 10.0
    note: str = ""


@dataclass(frozen=True)
class FamilyKit:
    """A family as a column through every layer: hub family, methods, data, views, online mode.

    ``hub`` is the hub package whose ``FAMILY`` is the family named ``name`` (e.g.
    ``packgap.packing``): imported at the first use of :attr:`family`, so that building the CLI
    and listing methods import no family's evaluator (NumPy; issue 20.5). ``commands`` returns
    a ``typer.Typer`` mounted as ``packgap <family> ...`` (a family's own calculators); it is
    called only when the CLI is built.
    """

    name: str
    hub: str
    methods: tuple[Method, ...]
    #: The unit of the evaluator's objective (and of every bound), shown in table headers and
    #: ``--json``: e.g. "s: average JCT".
    objective_unit: str = ""
    generators: tuple[Generator, ...] = ()
    trace_builders: tuple[TraceBuilder, ...] = ()
    documents: tuple[DocumentKind, ...] = ()
    views: tuple[View, ...] = ()
    simulation: Simulation | None = None
    commands: Callable[[], Any] | None = None
    demo: Demo | None = None
    #: ``packgap instances from-csv FAMILY FILE``: a researcher's own job list
    #: (:mod:`packgap.instances.csv_jobs`) into a document of ``csv_builder.target``.
    csv_builder: TraceBuilder | None = None

    @property
    def family(self) -> Family[Any, Any]:
        family: Family[Any, Any] = importlib.import_module(self.hub).FAMILY
        if family.name != self.name:
            raise PackgapError(f"kit {self.name!r}: {self.hub}.FAMILY is the family {family.name!r}")
        return family
