"""``packgap demo``: one small instance per family, the paper's heuristics beside an exact method.

Each kit names its demo (:class:`~packgap.analysis.kit.Demo`): a generator with its options and
the methods to run. Nothing here names a family. Every row is the ``compare`` row (validated,
scored by the family's evaluator, printed by the same table) with each method's certified gap
against the best bound any method proved on the instance for its class, which is what the demo
sets out to show.
:func:`demo_command` mounts it as ``packgap demo [FAMILY]...``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.markup import escape

from packgap.analysis import registry
from packgap.analysis.cliutil import out, progress, reports_errors, result_table
from packgap.analysis.kit import Demo, FamilyKit, GeneratorNote, check_options
from packgap.errors import PackgapError
from packgap.result import SolveResult, Status


@dataclass(frozen=True)
class DemoTable:
    """One family's demo: its instance's name and every method's result on it."""

    family: str
    demo: Demo
    instance: str
    results: list[SolveResult]


def demo_kits(names: Sequence[str] = ()) -> list[FamilyKit]:
    """The kits with a demo, in registry order (only ``names`` when given)."""
    chosen = [registry.kit(n) for n in names] if names else list(registry.kits().values())
    for kit in chosen:
        if kit.demo is None:
            raise PackgapError(f"family {kit.name} has no demo")
    return chosen


def demo_instance(demo: Demo) -> Any:
    """The demo's instance, built by its generator from its options."""
    gen = registry.generator(demo.generator)
    with warnings.catch_warnings():
        # A demo's options are chosen so that the instance is what it says; notes are noise here.
        warnings.simplefilter("ignore", GeneratorNote)
        return gen.build(check_options(gen.options, demo.options, f"{gen.name} generator"))


def run_demo(
    kits: Sequence[FamilyKit],
    time_limit: float | None = None,
    on_done: Callable[[SolveResult], None] | None = None,
) -> list[DemoTable]:
    """Every kit's demo: each method on its instance (``time_limit`` overrides the demo's)."""
    from packgap.analysis.compare import compare_instance
    from packgap.solvers.outcome import SolveOptions

    tables = []
    for kit in kits:
        demo = kit.demo
        assert demo is not None, "demo_kits() keeps only kits with a demo"
        instance = demo_instance(demo)
        methods = [registry.method(kit.name, m) for m in demo.methods]
        options = SolveOptions(time_limit=demo.time_limit if time_limit is None else time_limit)
        results = compare_instance(kit.family, instance, methods, options, on_done=on_done)
        tables.append(DemoTable(kit.name, demo, results[0].instance, results))
    return tables


#: What the demo's tables mean, printed above them.
DEMO_LEGEND = """Each table: one small instance of one family, the paper's heuristics and an exact method.
  objective          the family's evaluator's score of the answer (lower is better; unit in the header)
  own bound          a lower bound the method itself proved, valid for all classes of solutions
  certified gap      (objective - best proven bound for the method's class) / objective: at most
                     this far above the optimum of its class; bound source names that bound
  certified gap,     (sharing) against the best bound valid for every policy: the non-preemptive
   all classes       policies are certified by exact-bb's optimum, preemptive Tiresias by this one
  best-found gap     (objective - best objective of any method) / objective
  seconds            wall time on this machine"""
DEMO_FIGURES = (
    "Figures and REPRODUCTION.md (every reproduced number beside the paper's): make figures, "
    "that is packgap figures --all --out figures (--quick: small instances, minutes)."
)


def demo_command(app: typer.Typer) -> None:
    """Register ``packgap demo``."""
    app.command("demo")(reports_errors(demo))


def demo(
    families: Annotated[
        list[str] | None, typer.Argument(metavar="[FAMILY]...", help="Families to show (default: all).")
    ] = None,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", min=0, help="Wall seconds per exact method (default: the demo's).")
    ] = None,
) -> None:
    """One small instance per family: the papers' heuristics, an exact method, the certified gaps."""
    kits = demo_kits(families or [])
    out.print(DEMO_LEGEND, highlight=False)
    with progress() as bar:
        task = bar.add_task("solving", total=sum(len(k.demo.methods) for k in kits if k.demo is not None))

        def done(r: SolveResult) -> None:
            bar.update(task, advance=1, description=f"{r.instance}: {r.method} {r.status}")

        tables = run_demo(kits, time_limit, on_done=done)
    for t in tables:
        result_table(t.results, title=t.demo.title, instances=False)
        if t.demo.note:
            out.print(t.demo.note, highlight=False)
        out.print(f"{t.family} instance {t.instance}", highlight=False)
        for r in t.results:
            if r.message and r.status != Status.OPTIMAL:
                out.print(f"  {r.method}: {escape(r.message)}", highlight=False)
    out.print(DEMO_FIGURES, highlight=False)
