"""``packgap figures``: every reproduced table and figure of the papers, and REPRODUCTION.md.

Each :class:`~packgap.analysis.kit.Reproduction` (of ``paper_figures/``, found through the
``packgap.reproductions`` entry point: :func:`reproductions`) computes rows once; the rows go into the
results store (table ``reproductions``), keyed by the reproduction's parameters and the
package's source digest, so a rerun of the same code recomputes nothing and only redraws
(benchopt: figures are functions of stored results) while a code change recomputes.
:mod:`packgap.analysis.reproduction_md` writes REPRODUCTION.md from what this returns.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import packgap
from packgap import jsonio
from packgap.analysis.kit import PaperValue, Reproduction, Tick, no_tick
from packgap.analysis.store import ResultStore, StoredRows, checkout_commit, source_digest
from packgap.analysis.sweep import executor
from packgap.errors import PackgapError, UnknownNameError
from packgap.instances.traces import traces_dir


@dataclass(frozen=True)
class Reproduced:
    """A reproduction's rows, figures and values; ``stored`` says who computed the rows and
    ``reused`` whether this run took them from the store."""

    reproduction: Reproduction
    figures: list[Path]
    values: list[PaperValue]
    stored: StoredRows
    reused: bool
    quick: bool
    #: A quick run's values at the paper's size, from full-size rows of the same code in the
    #: store (None: not run), so REPRODUCTION.md says where quick and full disagree.
    full_values: list[PaperValue] | None = None

    @property
    def rows(self) -> list[dict[str, Any]]:
        return self.stored.rows


#: The entry-point group whose objects are tuples of :class:`Reproduction` (packgap's own:
#: ``packgap.paper_figures:REPRODUCTIONS``).
GROUP = "packgap.reproductions"


@functools.cache
def reproductions() -> dict[str, Reproduction]:
    """Every reproduction of every package in the ``packgap.reproductions`` entry-point group, by
    name: packgap's own first, in their order, then the others' by entry-point name. The engine
    finds the papers' reproductions this way, never by importing ``paper_figures`` (which sits
    above it); two reproductions of one name are an error naming both entry points."""
    points = sorted(entry_points(group=GROUP), key=lambda p: (not p.value.startswith("packgap."), p.name))
    found: dict[str, Reproduction] = {}
    where: dict[str, str] = {}
    for point in points:
        for item in point.load():
            if item.name in found:
                raise PackgapError(f"reproduction {item.name!r} comes from {where[item.name]} and {point.value}")
            found[item.name], where[item.name] = item, point.value
    if not found:
        raise PackgapError(f"no reproductions: the entry-point group {GROUP!r} is empty (is packgap installed?)")
    return found


def chosen(names: Sequence[str]) -> list[Reproduction]:
    found = reproductions()
    for name in names:
        if name not in found:
            raise UnknownNameError("reproduction", name, list(found))
    return [found[n] for n in names] if names else list(found.values())


def trace_folder() -> str:
    """The trace folder the trace-based reproductions read ("" when there is none): part of
    the store key, so rows computed without traces are not reused once traces are there."""
    try:
        return str(traces_dir(None).resolve())
    except PackgapError:
        return ""


def reproduce(
    items: Sequence[Reproduction],
    *,
    quick: bool,
    out: Path,
    store: ResultStore,
    recompute: bool,
    tick: Tick,
    stored_only: bool = False,
    workers: int = 1,
) -> list[Reproduced]:
    """Compute (or reuse) the rows of each reproduction, draw its figures into ``out`` and
    collect its paper-vs-ours values; every computed set of rows is stored as soon as it is
    done, keyed by the reproduction's parameters and the package's source digest (rows of
    other code, other sizes or seeds are never reused), so an interrupted run keeps what it
    finished. ``stored_only`` skips the items without stored rows instead of computing them;
    ``workers`` > 1 computes that many reproductions at once on the sweep's process pool
    (:func:`~packgap.analysis.sweep.executor`: its workers end with this process, and Ctrl-C
    ends them); rows are deterministic, so they are the same as one process computes."""
    digest = source_digest()
    traces = trace_folder()
    tick("reproductions", 0, len(items))
    params = {item.name: {**item.params(quick), "traces": traces} for item in items}
    found = {i.name: None if recompute else store.find_reproduction(i.name, params[i.name], digest) for i in items}
    todo = [] if stored_only else [i for i in items if found[i.name] is None]
    if workers > 1:
        todo = longest_first(todo, {i.name: store.last_seconds(i.name, params[i.name]) for i in todo})
    computed = {i.name for i in todo}
    for item, rows, seconds in _computed(todo, quick, workers, tick):
        store.append_reproduction(item.name, params[item.name], digest, rows, seconds)
        found[item.name] = StoredRows(rows, "this run", checkout_commit(), packgap.__version__, seconds)
    done = []
    for item in items:
        stored = found[item.name]
        if stored is None:
            continue
        reused = item.name not in computed
        figures = item.draw(stored.rows, out)
        full = store.find_reproduction(item.name, {**item.params(False), "traces": traces}, digest) if quick else None
        full_values = None if full is None else item.compare(full.rows)
        done.append(Reproduced(item, figures, item.compare(stored.rows), stored, reused, quick, full_values))
        if reused:
            tick(f"{item.name}: stored", 1, None)
    return done


def longest_first(items: Sequence[Reproduction], last: dict[str, float | None]) -> list[Reproduction]:
    """``items`` by their last stored seconds, longest first and never computed before them all,
    so that no long reproduction starts last while the other workers idle (LPT order)."""
    return sorted(items, key=lambda i: -(math.inf if (s := last[i.name]) is None else s))


def _computed(
    items: Sequence[Reproduction], quick: bool, workers: int, tick: Tick
) -> Iterator[tuple[Reproduction, list[dict[str, Any]], float]]:
    """(item, rows, seconds) of each item, in the order they finish. Rows come back through
    JSON as the store returns them, so computed and reused rows compare alike."""
    if workers <= 1 or len(items) <= 1:
        for item in items:
            text, seconds = _compute(item.compute, quick, tick)
            tick(f"{item.name}: computed", 1, None)
            yield item, json.loads(text), seconds
        return
    pool = executor(min(workers, len(items)), None)
    failed: BaseException | None = None
    try:
        running = {pool.submit(_compute, item.compute, quick): item for item in items}
        for future in pool.as_completed(list(running)):
            if future.cancelled():
                continue
            if future.exception() is not None:
                # The others still running finish and are stored before the first error is raised.
                failed = failed or future.exception()
                for other in running:
                    other.cancel()
                continue
            text, seconds = future.result()
            tick(f"{running[future].name}: computed", 1, None)
            yield running[future], json.loads(text), seconds
    except KeyboardInterrupt:
        pool.interrupt()
        raise
    finally:
        pool.close()
    if failed is not None:
        raise failed


def _compute(
    compute: Callable[[bool, Tick], list[dict[str, Any]]], quick: bool, tick: Tick = no_tick
) -> tuple[str, float]:
    started = time.perf_counter()
    rows = compute(quick, tick)
    return jsonio.dumps(rows), time.perf_counter() - started
