"""SJF-BSBF Fig. 6b: SJF-FFS and SJF-BSBF under one injected interference ratio xi in 1.0-2.0
(240 generated jobs), and where the average JCT of each goes (:func:`run_time_parts`), the
measured cause of the gap between them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis.kit import Direction, PaperValue, Reproduction, Tick, equal
from packgap.paper_figures.sjf_bsbf import plots
from packgap.paper_figures.sjf_bsbf.common import HOUR, lp_in, mean_metric, seed_range, simulate_row, sizes


def fig6b(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    from packgap.instances.sharing.generator import generate

    rows = []
    for xi in (1.0, 1.25, 1.5, 1.75, 2.0):
        for seed in seed_range(quick):
            inst = generate(240, seed, xi=xi, workload="v1")
            row = simulate_row(inst, {"seed": seed, "xi": xi}, tick, lp_in(quick))
            rows.append({**row, "run_time": run_time_parts(inst)})
    return rows


def run_time_parts(instance: Any) -> dict[str, dict[str, float]]:
    """Where SJF-FFS's and SJF-BSBF's average JCT goes (s per job): queuing, solo run time at
    the requested batch, the extra solo time of a smaller sub-batch (accumulation), and the
    rest, the slowdown xi while shared; with SJF-BSBF also run without Algorithm 2's SF
    (``share_flag=False``: every memory-fitting pair shares), which measures Theorem 1's declines."""
    from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
    from packgap.heuristics.sharing.sjf_ffs import sjf_ffs
    from packgap.sharing import FAMILY, Perf

    perf = Perf(instance)
    solo = {j.id: perf.solo_time(j.id, perf.solo_batch(j)) for j in instance.jobs}
    n = len(instance.jobs)
    out = {}
    for name, run in (("sjf-ffs", sjf_ffs), ("sjf-bsbf", sjf_bsbf), ("sjf-bsbf without SF", _without_sf)):
        solution = run(instance)
        metrics = FAMILY.evaluate(instance, solution).metrics
        accumulation = sum(perf.solo_time(s.id, s.batch) - solo[s.id] for s in solution.jobs) / n
        parts = {"avg_jct_s": metrics["avg_jct_s"], "queuing_s": metrics["avg_queuing_s"]}
        parts |= {"solo_s": sum(solo.values()) / n, "accumulation_s": accumulation}
        parts["slowdown_s"] = parts["avg_jct_s"] - parts["queuing_s"] - parts["solo_s"] - accumulation
        out[name] = parts | {"shared_jobs": metrics["shared_jobs"]}
    return out


def _without_sf(instance: Any) -> Any:
    from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf

    return sjf_bsbf(instance, share_flag=False)


def compare_fig6b(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for xi in sorted({r["xi"] for r in rows}):
        at = [r for r in rows if r["xi"] == xi]
        ffs, bsbf = mean_metric(at, "sjf-ffs", "avg_jct_s"), mean_metric(at, "sjf-bsbf", "avg_jct_s")
        paper, note = (0.0, "paper: equal") if xi <= 1.25 else (0.105, "paper: 8-13 % lower")
        # "Equal" read as within 2 %; the paper's 8-13 % as above 0.
        direction = equal(0.02) if paper == 0 else Direction(">", 0.0)
        label = f"SJF-BSBF's JCT reduction vs SJF-FFS at xi = {xi:g}"
        out.append(PaperValue("Fig. 6b", label, paper, 1 - bsbf / ffs, "", note, direction, cause=_fig6b_cause(at)))
    return out


def _fig6b_cause(rows: Sequence[Mapping[str, Any]]) -> str:
    """Which part of the JCT (:func:`run_time_parts`) SJF-BSBF saves against SJF-FFS, and what
    dropping Theorem 1's declines changes, in hours per job."""
    if not all("run_time" in r for r in rows):
        return ""

    def part(policy: str, key: str) -> float:
        return sum(r["run_time"][policy][key] for r in rows) / len(rows) / HOUR

    keys = ("queuing_s", "accumulation_s", "slowdown_s")
    ffs, bsbf = ({k: part(p, k) for k in keys} for p in ("sjf-ffs", "sjf-bsbf"))
    without = part("sjf-bsbf without SF", "avg_jct_s") - part("sjf-bsbf", "avg_jct_s")
    shared = [part(p, "shared_jobs") * HOUR for p in ("sjf-ffs", "sjf-bsbf")]
    return (
        f"measured (run_time rows): SJF-BSBF saves {ffs['accumulation_s'] - bsbf['accumulation_s']:.3f} h per job of "
        f"sub-batch accumulation ({ffs['accumulation_s']:.3f} vs {bsbf['accumulation_s']:.3f} h), "
        f"{ffs['slowdown_s'] - bsbf['slowdown_s']:.3f} h of shared slowdown and "
        f"{ffs['queuing_s'] - bsbf['queuing_s']:.3f} h of queuing ({shared[0]:g} vs {shared[1]:g} jobs start shared); "
        f"dropping Theorem 1's declines (share_flag=False) moves SJF-BSBF by {without:+.3f} h: the gap is "
        "Algorithm 2's choice of partner and sub-batch (least t) against SJF-FFS's first fit by GPU id at the largest "
        "sub-batch fitting every chosen GPU (packgap's reading: the paper gives SJF-FFS no sub-batch rule)"
    )


REPRODUCTION = Reproduction(
    "sjf-bsbf-fig6b",
    "SJF-BSBF",
    "Fig. 6b",
    "Average JCT vs injected interference ratio",
    fig6b,
    plots.draw_fig6b,
    compare_fig6b,
    sizes(240),
)
