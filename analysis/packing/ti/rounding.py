"""LP rounding of ``exact-ti``: an LP (or integer) answer -> packing and priorities ->
serial schedule (:mod:`packgap.models.packing.serial`) -> offered to the search as an answer."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from packgap.analysis.packing.ti.search import Search
from packgap.models.packing import ti_grid
from packgap.models.packing.data import Candidate
from packgap.models.packing.serial import serial_schedule


def lp_groups(
    cands: Sequence[Candidate], jobs: int, candidate: np.ndarray, kind: np.ndarray, start: np.ndarray, x: np.ndarray
) -> list[tuple[int, list[int]]]:
    """LP rounding: a packing from the LP mass of each candidate, in x-weighted start order.

    Candidates are taken greedily by total x (over types and periods) while their jobs are
    free; a job left over runs alone. Each group may use the types its LP answer uses most
    (every type when it has no mass), in priority of its x-weighted mean start.
    """
    n = len(cands)
    mass = np.bincount(candidate, weights=x, minlength=n)
    when = np.bincount(candidate, weights=x * start, minlength=n) / np.maximum(mass, 1e-12)
    singles = {cands[c].jobs[0]: c for c in range(n) if len(cands[c].jobs) == 1}
    taken: set[int] = set()
    picked = []
    for c in np.argsort(-mass, kind="stable"):
        if mass[c] <= 1e-9 or taken & set(cands[c].jobs):
            continue
        taken |= set(cands[c].jobs)
        picked.append(int(c))
    picked += [singles[j] for j in range(jobs) if j not in taken]
    order = sorted(picked, key=lambda c: (when[c] if mass[c] > 1e-9 else cands[c].release, c))
    result = []
    for c in order:
        on = candidate == c
        by_type = np.bincount(kind[on], weights=x[on], minlength=len(cands[c].durations))
        heavy = [int(k) for k in np.flatnonzero(by_type >= 0.5 * by_type.max() - 1e-12)] if by_type.max() > 0 else []
        types = heavy or [k for k, d in enumerate(cands[c].durations) if d is not None]
        result.append((c, types))
    return result


def round_answer(search: Search, cols: ti_grid.ColumnSet, x: np.ndarray) -> None:
    """LP (or integer) answer -> packing and priorities -> serial schedule -> offered."""
    opts = search.opts
    order = lp_groups(search.cands, search.n, opts.candidate[cols.option], opts.kind[cols.option], cols.start, x)
    search.offer_chosen(serial_schedule(search.instance, search.cands, order, search.w))
