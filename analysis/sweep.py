"""Sweeps: many (instance, method) cells on a local process pool or a Dask cluster.

Each cell is saved to the results store the moment it finishes, and cells already in the
store are skipped, so an interrupted sweep resumes where it stopped and loses nothing
(DESIGN.md, "Results"). The store is written only by this (the parent) process.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from typing import Any

from packgap.analysis import plugins
from packgap.analysis.registry import family as lookup_family
from packgap.analysis.registry import method as lookup_method
from packgap.analysis.run import check_against_optimum, find_stored, solve
from packgap.analysis.store import ResultStore, instance_digest
from packgap.errors import PackgapError
from packgap.result import SolveResult
from packgap.solvers.outcome import SolveOptions


@dataclass(frozen=True)
class Cell:
    """One (instance, method) run; ``seed`` None runs with the sweep's seed, ``params`` are the
    method's parameters (defaults for the rest), ``solver`` None runs on the sweep's solver."""

    family: str
    instance: dict[str, Any]  # canonical instance document, so workers need no files
    method: str
    seed: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    solver: str | None = None

    def options(self, options: SolveOptions) -> SolveOptions:
        if self.seed is not None:
            options = replace(options, seed=self.seed)
        return options if self.solver is None else replace(options, solver=self.solver)


def solve_cell(cell: Cell, options: SolveOptions, plugin_specs: Sequence[str] = ()) -> dict[str, Any]:
    """Worker entry point (top level, so it pickles): returns the result as a plain dict.
    ``plugin_specs`` are the plug-in modules and files the parent loaded by name: a worker
    imports them itself (:mod:`packgap.analysis.plugins`), whether it was forked, spawned or
    is a Dask worker."""
    plugins.load_plugins(*plugin_specs)
    fam = lookup_family(cell.family)
    instance = fam.instance_from_dict(cell.instance)
    method = lookup_method(cell.family, cell.method)
    return solve(fam, instance, method, options=cell.options(options), params=cell.params).to_dict()


@dataclass(frozen=True)
class Executor:
    """Submit work, iterate futures as they complete, shut down: a process pool or Dask."""

    submit: Callable[..., Any]
    as_completed: Callable[[list[Any]], Iterator[Any]]
    close: Callable[[], None]
    interrupt: Callable[[], None] = lambda: None


def die_with_parent() -> None:
    """Worker initializer: end this process when the sweep that started it dies, even by
    ``kill -9`` (Linux's parent-death signal, and a watch on the parent id elsewhere)."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


#: ``prctl`` option that sends a signal to this process when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def executor(workers: int, scheduler: str | None) -> Executor:
    if scheduler is None:
        before = {p.pid for p in multiprocessing.active_children()}
        pool = ProcessPoolExecutor(max_workers=workers, initializer=die_with_parent)

        def interrupt() -> None:
            """End the workers on Ctrl-C, so that shutting the pool down waits for none of their
            cells. Passing SIGINT on is not enough: a worker whose solve it stops takes the next
            cell already queued to it and runs that one to its time limit (measured: 60 s after
            Ctrl-C with one worker). Only this process writes the store, so a cell cut short
            here is never stored."""
            for child in multiprocessing.active_children():
                if child.pid is not None and child.pid not in before:
                    child.terminate()

        return Executor(pool.submit, as_completed, lambda: pool.shutdown(cancel_futures=True), interrupt)
    try:
        from distributed import Client
        from distributed import as_completed as dask_as_completed
    except ImportError:
        raise PackgapError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
    try:
        client = Client(scheduler)
    except OSError as exc:
        raise PackgapError(f"cannot reach Dask scheduler {scheduler}: {exc}") from None
    return Executor(client.submit, dask_as_completed, client.close)


def run_sweep(
    cells: Sequence[Cell],
    options: SolveOptions,
    store: ResultStore,
    *,
    workers: int = 2,
    scheduler: str | None = None,
    on_done: Callable[[SolveResult, bool], None] | None = None,
) -> list[SolveResult]:
    """Solve every cell not yet stored; ``on_done(result, reused)`` reports progress.

    When all methods of an instance are in, their objectives are checked against each
    other's proven optima and bounds (a heuristic below a proven optimum raises).
    """
    results: dict[int, SolveResult] = {}
    pending: list[int] = []
    digests = [instance_digest(c.instance) for c in cells]
    for i, cell in enumerate(cells):
        method = lookup_method(cell.family, cell.method)
        found = find_stored(store, digests[i], method, cell.options(options), cell.params)
        if found is None:
            pending.append(i)
        else:
            results[i] = found
            if on_done is not None:
                on_done(found, True)
    if pending:
        ex = executor(workers, scheduler)
        try:
            specs = plugins.loaded_specs()
            futures = {ex.submit(solve_cell, cells[i], options, specs): i for i in pending}
            for future in ex.as_completed(list(futures)):
                i, result = futures[future], SolveResult.from_dict(future.result())
                cell = cells[i]
                fam = lookup_family(cell.family)
                store.append(digests[i], result, fam.summary(fam.instance_from_dict(cell.instance)))
                results[i] = result
                if on_done is not None:
                    on_done(result, False)
        except KeyboardInterrupt:
            ex.interrupt()
            raise
        finally:
            ex.close()
    by_instance: dict[str, list[int]] = {}
    for i, digest in enumerate(digests):
        by_instance.setdefault(digest, []).append(i)
    checked: dict[int, SolveResult] = {}
    for indices in by_instance.values():
        for i, r in zip(indices, check_against_optimum([results[i] for i in indices]), strict=True):
            checked[i] = r
    return [checked[i] for i in range(len(cells))]
