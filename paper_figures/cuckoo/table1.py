"""CUCKOO Table 1 (Muri against no packing: average JCT and deadline satisfaction), simulated on
Muri's own testbed trace.

The paper measured Table 1 on its testbed with a trace it does not publish. Its simulated
counterpart here: the 400 jobs of ``muri/cluster_exp/cluster_trace.csv`` (the trace Muri's
authors ran on their 64-V100 testbed, ``cluster_spec_n8g8``) on 64 V100, deadlines of eq. 15
drawn with each seed (:func:`packgap.instances.packing.muri.build`), online in 60 s rounds
(:func:`packgap.paper_figures.cuckoo.tables9_14.online_run`). "Muri" is Muri's Blossom packing with its
own estimate (Muri-P) and FIFO order (``blossom+fifo``, as ``cuckoo-online``'s Muri; the cluster
is homogeneous, so nothing is hidden from it); "Non-packing", one job at a time, is ``none+fifo``.

Both modes run all 400 jobs: the first 100 reverse both directions (Muri's mean JCT 142,371 s
against 133,397 s without packing; deadlines met 45 % against 34 %, seed 1), as the trace's long
8- and 32-GPU jobs arrive later. The seed draws deadlines only, so the mean JCT is the same on
every seed and the deadline satisfaction spreads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.kit import Direction, PaperValue, Reproduction, Tick, side
from packgap.paper_figures.cuckoo.causes import mean
from packgap.paper_figures.cuckoo.muri_misses import MURI_TRACE
from packgap.paper_figures.cuckoo.tables9_14 import online_metrics_row, online_run

#: Table 1: strategy -> (average JCT s, deadline satisfaction), and the pipeline run for each.
TABLE1 = {"Non-packing": (3953.0, 0.4914), "Muri": (3689.0, 0.3916)}
PIPELINES = {"Non-packing": "none+fifo", "Muri": "blossom+fifo"}
SEEDS = (1, 2, 3)
JOBS = 400


def table1_size(quick: bool) -> dict[str, Any]:
    return {"trace": MURI_TRACE, "jobs": JOBS, "seeds": len(SEEDS), "GPUs": "64 V100"}


def trace_path() -> Path | None:
    """The Muri testbed trace, or None without the trace folder or the file."""
    from packgap.errors import PackgapError
    from packgap.instances.traces import traces_dir

    try:
        path = traces_dir(None) / MURI_TRACE
    except PackgapError:
        return None
    return path if path.is_file() else None


def table1(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Both strategies online on each seed's instance; one row saying so without the trace."""
    from packgap.instances.packing import muri

    path = trace_path()
    if path is None:
        return [{"traces": False}]
    rows = []
    tick("cuckoo-table1", 0, len(SEEDS))
    for seed in SEEDS:
        instance = muri.build(path, seed, max_jobs=JOBS)
        for strategy, pipeline in PIPELINES.items():
            metrics = online_metrics_row(instance, online_run(instance, pipeline, {}))
            rows.append({"traces": True, "seed": seed, "jobs": len(instance.jobs), "strategy": strategy, **metrics})
        tick(f"Muri trace, seed {seed}", 1, None)
    return rows


def _mean(rows: Sequence[Mapping[str, Any]], strategy: str, metric: str) -> float:
    return mean([r[metric] for r in rows if r["strategy"] == strategy])


def compare_table1(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    """Muri's average JCT below and its deadline satisfaction below no packing's, as in the paper."""
    if not rows or not rows[0]["traces"]:
        return [PaperValue("Table 1", "Muri average JCT", TABLE1["Muri"][0], None, "s", "traces not available")]
    scale = "the Muri testbed trace's jobs run hours (the paper's own trace is not published): compare the order"
    out = []
    measures = (("mean_jct_s", "average JCT", "s"), ("deadline_satisfaction", "deadline satisfaction", ""))
    for k, (metric, what, unit) in enumerate(measures):
        reference = f"Non-packing {what}"
        note = scale if k == 0 else ""
        alone, muri = _mean(rows, "Non-packing", metric), _mean(rows, "Muri", metric)
        out.append(PaperValue("Table 1", reference, TABLE1["Non-packing"][k], alone, unit, note))
        direction = Direction("<", reference)
        out.append(PaperValue("Table 1", f"Muri {what}", TABLE1["Muri"][k], muri, unit, "", direction))
    paper = TABLE1["Muri"][0] / TABLE1["Non-packing"][0]
    ours = _mean(rows, "Muri", "mean_jct_s") / _mean(rows, "Non-packing", "mean_jct_s")
    out.append(PaperValue("Table 1", "Muri / Non-packing average JCT", paper, ours, "", "", side(paper, 1.0)))
    pairs = _mean(rows, "Muri", "pairs")
    out.append(PaperValue("Table 1", "Muri's packed pairs", None, pairs, "", f"{rows[0]['jobs']} jobs"))
    return out


def draw_table1(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    """Average JCT (over no packing's of the same seed) and deadline satisfaction per strategy,
    ours beside the paper's testbed numbers."""
    from packgap.analysis import plotting as style

    rows = [r for r in rows if r["traces"]]
    if not rows:
        return []
    fig = style.new_figure(10.0, 4.0)
    axes = style.panels(fig, 1, 2)
    names = list(TABLE1)
    alone = {r["seed"]: r["mean_jct_s"] for r in rows if r["strategy"] == "Non-packing"}
    shown = (
        ([[r["mean_jct_s"] / alone[r["seed"]] for r in rows if r["strategy"] == s] for s in names], 1.0),
        ([[100 * r["deadline_satisfaction"] for r in rows if r["strategy"] == s] for s in names], 100.0),
    )
    paper = ([TABLE1[s][0] / TABLE1["Non-packing"][0] for s in names], [TABLE1[s][1] for s in names])
    labels = ("average JCT / Non-packing's (-)", "deadline satisfaction (%)")
    ours = f"ours ({style.seeds_note(len({r['seed'] for r in rows}))})"
    for ax, (values, scale), theirs, label in zip(axes, shown, paper, labels, strict=True):
        means, spread = style.seed_bars(values)
        colours = [style.color("none" if s == "Non-packing" else s) for s in names]
        ax.bar(range(len(names)), means, yerr=spread, capsize=3, color=colours, label=ours)
        style.paper_marker(ax, range(len(names)), [v * scale for v in theirs], label="paper (testbed)")
        ax.set_xticks(range(len(names)), names)
        ax.set(xlabel="packing strategy", ylabel=label)
    style.figure_legend(fig, axes[0], columns=2)
    jobs = rows[0]["jobs"]
    fig.suptitle(f"CUCKOO Table 1: Muri vs no packing on Muri's testbed trace ({jobs} jobs, 64 V100), online")
    return style.save_figure(fig, out_dir, "cuckoo_table1")


REPRODUCTION = Reproduction(
    "cuckoo-table1",
    "CUCKOO",
    "Table 1",
    "Muri vs no packing: average JCT and deadline satisfaction on Muri's testbed trace (simulated)",
    table1,
    draw_table1,
    compare_table1,
    table1_size,
)
