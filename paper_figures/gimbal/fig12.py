"""GIMBAL's Fig. 12 (section 7.3), the ablation: 100 Philly jobs on 16 GPUs
(:mod:`~packgap.paper_figures.gimbal.endtoend`): unequal packing, + LISS, + LGRR (GIMBAL), and the
exact calibration, as improvement over each base scheduler.

The rows need the trace files of :data:`~packgap.paper_figures.gimbal.endtoend.TRACE_FILES`;
without them the runs use the seeded workload generator and say so in every row (``workload``).
``quick`` runs fewer jobs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis.calibration.simulate import improvement
from packgap.analysis.kit import Direction, PaperValue, Reproduction, Tick, side
from packgap.heuristics.calibration.variants import BASES
from packgap.paper_figures.gimbal import endtoend, plots
from packgap.paper_figures.gimbal.plots import PAPER_FIG12

FIG12_VARIANTS = ("baseline", "unequal", "liss", "gimbal", "exact")


def fig12_size(quick: bool) -> dict[str, Any]:
    return {"jobs": 40 if quick else 100, "nodes": 8, "seeds": 1}


def fig12(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    size = fig12_size(quick)
    tick("Fig. 12", 0, len(BASES) * len(FIG12_VARIANTS))
    return endtoend.runs("philly", size["jobs"], size["nodes"], tuple(BASES), FIG12_VARIANTS, tick, "Fig. 12")


def compare_fig12(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for base, paper in PAPER_FIG12.items():
        previous = None
        for variant, value in zip(("unequal", "liss", "gimbal"), paper, strict=True):
            # Each step adds to the one before ("+ LISS", "+ LGRR"); the first beats the base.
            direction = side(value, 1.0) if previous is None else Direction(">", previous)
            quantity = f"{base} + {variant}"
            note = _fig12_note(rows, base, variant)
            cause = _makespan_cause(rows, variant) if base == "gavel" else ""
            ours = improvement(rows, base, variant)
            out.append(PaperValue("Fig. 12", quantity, value, ours, "x", note, direction, cause=cause))
            previous = quantity
        out.append(PaperValue("Fig. 12", f"{base} + exact calibration", None, improvement(rows, base, "exact"), "x"))
    return out


def _fig12_note(rows: Sequence[Mapping[str, Any]], base: str, variant: str) -> str:
    """The measured step behind an ablation value: the base's headline metric before and after
    it, the unequal sets formed, and (LISS) how far it moved the mean JCT."""
    from packgap.analysis.calibration.simulate import HEADLINE

    found = {r["variant"]: r for r in rows if r["base"] == base}
    before = {"unequal": "baseline", "liss": "unequal", "gimbal": "liss"}[variant]
    metric = HEADLINE[base]
    a, b = found[before], found[variant]
    sets = f"{b['unequal_sets']:g} unequal sets of {b['jobs']:g} jobs"
    note = f"measured: {metric} {a[metric]:.4g} -> {b[metric]:.4g} ({sets})"
    if variant == "liss":
        moved = b["mean_jct_s"] / a["mean_jct_s"] - 1
        note += (
            f"; LISS moves the mean JCT by {moved:+.2%}: in {b['straggler_sets']:g} of the {b['calibrations']:g} sets "
            "formed a job's workers run at different speeds, the only sets LISS re-splits (elsewhere every worker of "
            "a job runs equally fast)"
        )
    if base == "gandiva":
        note += f"; deadlines met is a count: one job is {1 / b['jobs']:.1%}"
    return note


def _makespan_cause(rows: Sequence[Mapping[str, Any]], variant: str) -> str:
    """Why a Gavel step moves the makespan as it does: the job that finishes last, its wait for
    free GPUs before and after the step, against the mean wait, and the cluster's solo load."""
    found = {r["variant"]: r for r in rows if r["base"] == "gavel"}
    before = {"unequal": "baseline", "liss": "unequal", "gimbal": "liss"}[variant]
    a, b = found[before], found[variant]
    return (
        f"measured: the makespan is the finish of the last job ({b['last_job_gpus']:g} GPUs), which waits "
        f"{a['last_job_queuing_s']:.0f} s for free GPUs under {before} and {b['last_job_queuing_s']:.0f} s here, "
        f"while the mean wait goes {a['mean_queuing_s']:.0f} -> {b['mean_queuing_s']:.0f} s; solo work spread over "
        f"every GPU from time 0 takes {b['solo_load_s']:.4g} s ({b['solo_load_s'] / a['makespan_s']:.0%} of "
        f"{before}'s makespan): the load leaves no slack, so the makespan follows when the last job finds its GPUs "
        "free, not how fast the packed sets run"
    )


REPRODUCTION = Reproduction(
    "gimbal-fig12",
    "GIMBAL",
    "Fig. 12",
    "Ablation: unequal packing, + LISS, + LGRR",
    fig12,
    plots.draw_fig12,
    compare_fig12,
    fig12_size,
)
