"""Gap tables and figures as pure functions of stored results (benchopt: figures never rerun).

The gaps are recomputed here over the whole store, in the vocabulary of every output (issue 33):
``certified_gap`` against the best bound proven on the same instance (same digest) that is valid
for the row's class, by any stored row (named in ``bound_source``), ``certified_gap_all_classes``
against the best bound valid for every solution, and ``best_found_gap`` against the best
objective any stored row reached there. ``own_bound_gap`` is the row's gap to its own bound.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pandas as pd

from packgap.analysis.store import ResultStore
from packgap.errors import PackgapError
from packgap.result import SolveResult

#: The unit of each column of :func:`gap_table` (and of ``report --json``); "fraction" columns
#: print as percentages.
UNITS = {
    "n": "cells",
    "certified_gap_mean": "fraction",
    "certified_gap_q1": "fraction",
    "certified_gap_q3": "fraction",
    "certified_gap_max": "fraction",
    "certified_cells": "cells",
    "certified_gap_all_classes_mean": "fraction",
    "best_found_gap_mean": "fraction",
    "optimal_share": "fraction",
    "wall_s_mean": "s",
}
#: Which gap :func:`plot_gaps` draws: the column and the words of its axis.
GAPS = {
    "certified": ("certified_gap", "certified gap", "to the best proven bound of its class"),
    "best-found": ("best_found_gap", "best-found gap", "to the best objective found"),
}


def load_rows(store: ResultStore) -> pd.DataFrame:
    """One row per stored cell, with its gaps (module docstring), its ``scope``, whether its
    method is ``exact`` and the instance summary's fields as columns."""
    frame = pd.DataFrame(store.rows())
    if frame.empty:
        return frame
    frame = frame.rename(columns={"gap": "own_bound_gap"})
    results = [SolveResult.from_dict(json.loads(doc)) for doc in frame["result"]]
    proofs: dict[str, list[Any]] = {}
    best: dict[str, float] = {}
    for digest, r in zip(frame["instance_digest"], results, strict=True):
        proofs.setdefault(digest, []).extend(r.own_proofs())
        if r.objective is not None:
            best[digest] = min(best.get(digest, r.objective), r.objective)
    gapped = [r.with_gaps(best.get(d), proofs[d]) for d, r in zip(frame["instance_digest"], results, strict=True)]
    frame["certified_gap"] = [r.certified_gap for r in gapped]
    frame["bound_source"] = [r.bound_source for r in gapped]
    frame["certified_gap_all_classes"] = [r.certified_gap_all_classes for r in gapped]
    frame["best_found_gap"] = [r.best_found_gap for r in gapped]
    frame["scope"] = [r.scope for r in gapped]
    frame["exact"] = [_exact(r) for r in gapped]
    summaries = pd.DataFrame([json.loads(s or "{}") for s in frame["instance_summary"]], index=frame.index)
    extra = [c for c in summaries.columns if c not in frame.columns]
    return pd.concat([frame, summaries[extra]], axis=1)


def _exact(result: SolveResult) -> bool:
    """Whether the row's method is a registered exact method (a method registered nowhere, a
    plug-in run before, counts as exact when it proved a bound)."""
    from packgap.analysis import registry

    try:
        return registry.method(result.family, result.method).exact
    except PackgapError:
        return result.bound is not None


def _q(p: float) -> Any:
    return lambda s: s.quantile(p)


def gap_table(frame: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Per method (and per ``by``, an instance-summary field such as ``groups``), exact methods
    apart from heuristics: the mean certified gap with its spread (quartiles, maximum, and the
    cells it is known on), the mean gap against the bound valid for every class where a class has
    bounds of its own, the mean best-found gap, the share proven optimal and the mean seconds.
    Units: :data:`UNITS`."""
    keys = ["family", *([by] if by else []), "exact", "method"]
    grouped = frame.groupby(keys, dropna=False)
    table = grouped.agg(
        n=("method", "size"),
        certified_gap_mean=("certified_gap", "mean"),
        certified_gap_q1=("certified_gap", _q(0.25)),
        certified_gap_q3=("certified_gap", _q(0.75)),
        certified_gap_max=("certified_gap", "max"),
        certified_cells=("certified_gap", "count"),
        certified_gap_all_classes_mean=("certified_gap_all_classes", "mean"),
        best_found_gap_mean=("best_found_gap", "mean"),
        optimal_share=("status", lambda s: float((s == "optimal").mean())),
        wall_s_mean=("wall_s", "mean"),
        bound_source=("bound_source", _most_common),
    ).reset_index()
    table["exact"] = table["exact"].map({True: "exact", False: "heuristic"})
    if (frame["certified_gap"].fillna(-1) == frame["certified_gap_all_classes"].fillna(-1)).all():
        table = table.drop(columns="certified_gap_all_classes_mean")
    return table.rename(columns={"exact": "kind"})


def _most_common(sources: pd.Series) -> str:
    named = sources[sources != ""]
    return "" if named.empty else str(named.mode().iloc[0])


#: The words of each column of :func:`gap_table` in a printed table (the unit in brackets).
WORDS = {
    "n": "cells",
    "certified_gap_mean": "certified gap\nmean",
    "certified_gap_q1": "certified\nq1",
    "certified_gap_q3": "certified\nq3",
    "certified_gap_max": "certified\nmax",
    "certified_cells": "certified\ncells",
    "certified_gap_all_classes_mean": "cert. gap, all\nclasses, mean",
    "best_found_gap_mean": "best-found\ngap, mean",
    "optimal_share": "proven\noptimal",
    "wall_s_mean": "seconds\nmean",
    "bound_source": "bound source\n(most cells)",
}


def header(column: str) -> str:
    """A printed table's header: the column's words with its unit, ``certified gap mean (%)``."""
    unit = UNITS.get(column)
    words = WORDS.get(column, column)
    return words if unit in (None, "cells") else f"{words} ({'%' if unit == 'fraction' else unit})"


def table_json(table: pd.DataFrame) -> str:
    """``report --json``: the rows and the unit of each column (gaps and shares as fractions)."""
    units = {c: UNITS[c] for c in table.columns if c in UNITS}
    return json.dumps(
        {"units": units, "rows": json.loads(table.to_json(orient="records", double_precision=15))}, indent=2
    )


def plot_gaps(frame: pd.DataFrame, by: str, path: Path, gap: str = "certified") -> Any:
    """Each method's mean gap (%) against the integer instance-size field ``by``, with the
    95 % confidence interval of the mean over the cells of each size (Student's t, clipped at 0:
    a gap is never negative) as error bars and their count stated, the
    heuristics and the exact methods in panels of their own; ``gap`` is ``certified`` (the
    default, :data:`GAPS`) or ``best-found``. Series that coincide keep their own marker and
    line style and say so in the legend. Returns the figure (tests read its data and ticks)."""
    from packgap.analysis import plotting

    if gap not in GAPS:
        raise PackgapError(f"gap: choose one of {', '.join(GAPS)}")
    column, short, against = GAPS[gap]
    if frame[column].notna().sum() == 0 and gap == "certified":
        column, short, against = GAPS["best-found"]
        against += " (no proven bound stored)"
    frame = frame[frame[column].notna()]
    split = (("heuristics", frame[~frame["exact"]]), ("exact methods", frame[frame["exact"]]))
    kinds = [(k, part) for k, part in split if not part.empty]
    if not kinds:
        raise PackgapError(f"no stored {column.replace('_', ' ')} to plot")
    fig = plotting.new_figure(4.2 * len(kinds) + 1.6, 3.6)
    axes = plotting.panels(fig, 1, len(kinds), sharey=True)
    sizes = sorted({float(v) for v in frame[by].dropna()})
    counts: set[int] = set()
    dodge = 0.03 * min((b - a for a, b in itertools.pairwise(sizes)), default=1.0)
    for ax, (kind, part) in zip(axes, kinds, strict=True):
        series = {str(m): _series(rows, by, column) for m, rows in part.groupby("method")}
        for i, (method, s) in enumerate(series.items()):
            counts.update(int(n) for n in s["n"])
            label = coincident_label(method, [o for o, t in series.items() if o != method and _same(s, t)])
            colour = plotting.CYCLE[i % len(plotting.CYCLE)]
            # each series a little to the side of its size, so coincident ones stay apart
            x = s[by] + (i - (len(series) - 1) / 2) * dodge
            mean = 100 * s["mean"]
            low = (mean - 100 * s["low"]).fillna(0.0)
            high = (100 * s["high"] - mean).fillna(0.0)
            ax.errorbar(x, mean, yerr=[low, high], label=label, color=colour, capsize=2, **STYLES[i % len(STYLES)])
        ax.set_xticks(sizes, [f"{v:g}" for v in sizes])
        ax.set_xlabel(by.replace("_", " "))
        ax.set_title(kind)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2, fontsize=8)
    axes[0].set_ylabel(f"{short} (%)")
    n = f"n = {min(counts)}" if len(counts) == 1 else f"n = {min(counts)}-{max(counts)}"
    family = ", ".join(sorted(set(frame["family"])))
    size = by.replace("_", " ")
    fig.suptitle(f"{family}: mean {short} {against}, by {size}\n(bars: 95 % interval of the mean; {n} per point)")
    fig.savefig(path, dpi=plotting.DPI)
    return fig


#: One marker and line style per method, hollow markers of falling size so that coincident
#: series stay visible one inside the other.
STYLES = [
    {"marker": m, "linestyle": ls, "markersize": size, "markerfacecolor": "none", "linewidth": 1.4}
    for m, ls, size in zip(
        ("o", "s", "^", "D", "v", "P", "X", "<"),
        ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1)), (0, (1, 2)), (0, (8, 2))),
        (10, 8.5, 7, 6, 5, 4.5, 4, 3.5),
        strict=True,
    )
]


def _series(rows: pd.DataFrame, by: str, column: str) -> pd.DataFrame:
    """Per size: the mean gap, the 95 % t interval of the mean (None with one cell) and the count."""
    from scipy import stats

    grouped = rows.groupby(by)[column]
    table = pd.DataFrame({"mean": grouped.mean(), "sd": grouped.std(ddof=1), "n": grouped.size()}).reset_index()
    half = [
        stats.t.ppf(0.975, n - 1) * sd / n**0.5 if n > 1 else float("nan")
        for n, sd in zip(table["n"], table["sd"], strict=True)
    ]
    table["low"] = (table["mean"] - half).clip(lower=0.0)
    table["high"] = table["mean"] + half
    return table


#: Gaps closer than this (a fraction) are drawn as coincident: far below one pixel.
SAME = 1e-6


def _same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    return list(a.iloc[:, 0]) == list(b.iloc[:, 0]) and bool(((a["mean"] - b["mean"]).abs() < SAME).all())


def coincident_label(name: str, twins: list[str]) -> str:
    """A legend entry that says which other series it coincides with."""
    return name + (f" (= {', '.join(twins)})" if twins else "")
