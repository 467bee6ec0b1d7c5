"""``packgap figures``: every reproduced table and figure of the papers, and REPRODUCTION.md.

Each :class:`~packgap.analysis.kit.Reproduction` of every kit computes rows once; the rows go into the
results store (table ``reproductions``), keyed by the reproduction's parameters and the
package's source digest, so a rerun of the same code recomputes nothing and only redraws
(benchopt: figures are functions of stored results) while a code change recomputes.
:mod:`packgap.analysis.reproduction_md` writes REPRODUCTION.md from what this returns.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import packgap
from packgap import jsonio
from packgap.analysis import registry
from packgap.analysis.kit import PaperValue, Reproduction, Tick
from packgap.analysis.store import ResultStore, StoredRows, checkout_commit, source_digest
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


def reproductions() -> dict[str, Reproduction]:
    """Every reproduction of every kit, by name (names are unique across kits)."""
    return {r.name: r for k in registry.kits().values() for r in k.reproductions}


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
) -> list[Reproduced]:
    """Compute (or reuse) the rows of each reproduction, draw its figures into ``out`` and
    collect its paper-vs-ours values; every computed set of rows is stored at once, keyed by
    the reproduction's parameters and the package's source digest (rows of other code, other
    sizes or seeds are never reused). ``stored_only`` skips the items without stored rows
    instead of computing them."""
    done = []
    digest = source_digest()
    traces = trace_folder()
    tick("reproductions", 0, len(items))
    for item in items:
        params = {**item.params(quick), "traces": traces}
        stored = None if recompute else store.find_reproduction(item.name, params, digest)
        if stored is None and stored_only:
            continue
        reused = stored is not None
        if stored is None:
            started = time.perf_counter()
            rows = item.compute(quick, tick)
            seconds = time.perf_counter() - started
            store.append_reproduction(item.name, params, digest, rows, seconds)
            # Through JSON as the store returns them, so computed and reused rows compare alike.
            rows = json.loads(jsonio.dumps(rows))
            stored = StoredRows(rows, "this run", checkout_commit(), packgap.__version__, seconds)
        figures = item.draw(stored.rows, out)
        full = store.find_reproduction(item.name, {**item.params(False), "traces": traces}, digest) if quick else None
        full_values = None if full is None else item.compare(full.rows)
        done.append(Reproduced(item, figures, item.compare(stored.rows), stored, reused, quick, full_values))
        tick(f"{item.name}: {'stored' if reused else 'computed'}", 1, None)
    return done
