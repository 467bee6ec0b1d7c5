"""``packgap demo``: one small instance per family, the paper's heuristics beside an exact method.

Each kit names its demo (:class:`~packgap.analysis.kit.Demo`): a generator with its options and
the methods to run. Nothing here names a family. Every row is the ``compare`` row (validated,
scored by the family's evaluator); the demo adds each heuristic's certified gap against the
best bound any method proved on the instance, which is what the demo sets out to show.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from packgap.analysis import registry
from packgap.analysis.kit import Demo, FamilyKit, GeneratorNote, check_options
from packgap.errors import PackgapError
from packgap.result import SolveResult, Status, certified_gap


@dataclass(frozen=True)
class DemoTable:
    """One family's demo: its instance's name and every method's result on it."""

    family: str
    demo: Demo
    instance: str
    results: list[SolveResult]

    @property
    def best_bound(self) -> float | None:
        """The tightest lower bound any method proved (a proven optimum counts as one)."""
        bounds = [r.bound for r in self.results if r.bound is not None]
        bounds += [r.objective for r in self.results if r.status == Status.OPTIMAL and r.objective is not None]
        return max(bounds) if bounds else None

    def certified_gap(self, result: SolveResult) -> float | None:
        """``(objective - best bound) / |objective|``: the method is at most this far above the
        optimum; 0 means proven optimal."""
        return certified_gap(result.objective, self.best_bound)


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
