"""PAL's Fig. 11, 12, 13 and 18, and a new figure: per-round gaps to the exact round optimum.

The Sia-Philly figures (11, 12, 13 and the gaps) run the PAL artifact's simulator setup on
``pal/sia_philly_workloads/workload-N.csv`` of the trace folder: its 64-GPU slowdown table
(``blox-sim-inputs/gpu_perfvar_64gpu_seed42.csv``), model constants and classes, 360 s rounds,
L_across = 1.7 and its untracked extra jobs (:func:`instances.placement.sia.build_trace`,
``replay="blox"``), FIFO scheduling. PM-First and PAL run in the paper's reading by default
(``readings="paper"``) and in the artifact's own (``"artifact"``,
:mod:`heuristics.placement.artifact`); the full set computes both. Without the trace folder,
the rows say so and every compared value is None.

Figure numbers: the issue calls the overhead figure "Fig. 12", but in the paper Fig. 12 shows
the wait times of workloads 3 and 5 and Fig. 18 the placement overhead against cluster size
(section V-C); both are reproduced under the paper's numbers. The paper does not list the
cluster sizes of Fig. 18; we take 64 to 27,648 GPUs (Summit's count, section III-B).

Improvements are read as 1 - the geomean over workloads of (policy / Tiresias), Tiresias being
Packed-Sticky (section IV-A1). Section V-B calls workload 3 the best and 5 the worst
improvement "respectively", then explains that workload 5 gains most; the explanation is taken.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import fmean, median
from typing import Any

from analysis.kit import PaperValue, Reproduction, Tick
from analysis.placement import figures
from analysis.placement.figures import BASELINE, certified, geomean, primal, ratios
from heuristics.placement import POLICIES, cluster_policy
from packgap.errors import PackgapError
from packgap.placement import PlacementInstance, PlacementSolution
from packgap.placement.simulator import Cluster, Place, SimJob, SimResult

TABLE = "blox-sim-inputs/gpu_perfvar_64gpu_seed42.csv"
MISSING = "traces not available"
READINGS = ("paper", "artifact")
L_ACROSS = 1.7
FIG13_PENALTIES = (1.0, 1.5, 2.0, 2.5, 3.0)
FIG12_WORKLOADS = (3, 5)
FIG12_POLICIES = ("pm-first", "pal", BASELINE)
FIG18_POLICIES = ("pal", "pm-first")


@dataclass(frozen=True)
class SiaPhilly:
    """The artifact's 64-GPU cluster and each workload's jobs (tracked + untracked extras)."""

    cluster: Cluster
    round_length: float
    workloads: Mapping[int, list[SimJob]]


def sia_philly() -> SiaPhilly | str:
    """The Sia-Philly workloads of the trace folder, or why they are not available."""
    from analysis.placement.simulate import EXTRA_JOBS
    from instances.placement.sia import build_trace
    from instances.placement.sim import artifact_extra_jobs
    from instances.traces import traces_dir

    try:
        folder = traces_dir(None) / "pal"
    except PackgapError as exc:
        return f"{MISSING}: {exc}"
    found = {
        int(m[1]): p
        for p in folder.glob("sia_philly_workloads/*.csv")
        if (m := re.fullmatch(r"workload-(\d+)", p.stem))
    }
    if not found or not (folder / TABLE).is_file():
        return f"{MISSING}: {folder} lacks {TABLE} or sia_philly_workloads/workload-N.csv"
    traces = {w: build_trace(found[w], gpu_factors=folder / TABLE, replay="blox") for w in sorted(found)}
    first = next(iter(traces.values()))
    workloads = {w: [*t.jobs, *artifact_extra_jobs(list(t.jobs), EXTRA_JOBS)] for w, t in traces.items()}
    return SiaPhilly(first.cluster, first.round_length, workloads)


def missing(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The reason a reproduction had no traces, if its rows say so."""
    return next((str(r["missing"]) for r in rows if "missing" in r), None)


Rounds = list[tuple[PlacementInstance, PlacementSolution]]


def simulate_policy(
    sia: SiaPhilly, cluster: Cluster, workload: int, policy: str, readings: str, record: Rounds | None = None
) -> SimResult:
    """One FIFO run of a workload; ``record`` collects every placed round and its placement."""
    from heuristics.placement.schedulers import fifo
    from packgap.placement.simulator import simulate

    def observe(instance: PlacementInstance, solution: PlacementSolution) -> None:
        if record is not None:
            record.append((instance, solution))

    chosen = cluster_policy(policy, cluster, artifact=readings == "artifact")
    jobs = sia.workloads[workload]
    return simulate(
        cluster, jobs, fifo, chosen.place, sticky=chosen.sticky, round_length=sia.round_length, observe=observe
    )


def jct_rows(penalties: Sequence[float], readings: Sequence[str], label: str, tick: Tick) -> list[dict[str, Any]]:
    """Every policy on every workload at each L_across and reading: the run's metrics."""
    from analysis.placement.simulate import metrics

    sia = sia_philly()
    if isinstance(sia, str):
        return [{"missing": sia}]
    tick(label, 0, len(penalties) * len(readings) * len(sia.workloads) * len(POLICIES))
    rows = []
    for reading in readings:
        for penalty in penalties:
            cluster = replace(sia.cluster, locality_penalty=penalty)
            for w in sia.workloads:
                for policy in POLICIES:
                    result = simulate_policy(sia, cluster, w, policy, reading)
                    rows.append({"readings": reading, "l_across": penalty, "workload": w, "policy": policy})
                    rows[-1].update(metrics(result))
                    tick(label, 1, None)
    return rows


def fig11(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Quick: the paper's readings only; full: both."""
    return jct_rows((L_ACROSS,), READINGS[:1] if quick else READINGS, "Fig. 11", tick)


def fig13(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Quick: L_across 1.0 and 3.0 (the paper's quoted ends), the paper's readings only."""
    return jct_rows((1.0, 3.0) if quick else FIG13_PENALTIES, READINGS[:1] if quick else READINGS, "Fig. 13", tick)


def fig12(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Per-job wait times of workloads 3 and 5 (those present) under PM-First, PAL, Tiresias."""
    sia = sia_philly()
    if isinstance(sia, str):
        return [{"missing": sia}]
    rows = []
    for w in [w for w in FIG12_WORKLOADS if w in sia.workloads]:
        submit = {j.id: j.submit_time for j in sia.workloads[w]}
        for policy in FIG12_POLICIES:
            result = simulate_policy(sia, sia.cluster, w, policy, "paper")
            ids = sorted(result.wait, key=lambda j: (submit[j], int(j)))
            rows.append({"workload": w, "policy": policy, "job": ids, "wait_s": [result.wait[j] for j in ids]})
            tick("Fig. 12", 1, None)
    return rows


def _timed(place: Place, seconds: list[float], jobs: list[int]) -> Place:
    """``place``, recording its seconds and job count on every round with a job to place (a
    round without one asks nothing of the policy)."""

    def timed(instance: PlacementInstance, seed: int) -> PlacementSolution:
        start = time.perf_counter()
        solution = place(instance, seed)
        if instance.jobs:
            seconds.append(time.perf_counter() - start)
            jobs.append(len(instance.jobs))
        return solution

    return timed


def overhead_rows(sizes: Sequence[int], rounds: int, synergy_jobs: int, tick: Tick) -> list[dict[str, Any]]:
    """Seconds per placement round of PAL and PM-First: ``rounds`` full generated rounds (jobs
    = GPUs / 3, the Sia-Philly demand mix; at most 3 above 5,000 GPUs) per cluster size, with
    the K-Means binning timed apart (once per cluster: profiles are static, section IV-C); and
    every round of a ``synergy_jobs``-job Synergy trace on 256 GPUs at 10 jobs/hour, the
    paper's setting of its 2.8 s median."""
    from heuristics.placement.schedulers import fifo
    from instances.placement.rounds import generate_round
    from instances.placement.synergy import synergy_cluster_trace
    from packgap.placement.simulator import simulate

    rows = []
    for gpus in sizes:
        instances = [generate_round(gpus, gpus // 3, seed) for seed in range(rounds if gpus <= 5_000 else 3)]
        for policy in FIG18_POLICIES:
            row: dict[str, Any] = {"setting": "generated", "gpus": gpus, "policy": policy, "bins_s": []}
            row |= {"place_s": [], "jobs": []}
            for seed, instance in enumerate(instances):
                start = time.perf_counter()
                chosen = POLICIES[policy].configure(instance)
                row["bins_s"].append(time.perf_counter() - start)
                _timed(chosen.place, row["place_s"], row["jobs"])(instance, seed)
            rows.append(row)
            tick("Fig. 18", 1, None)
    trace = synergy_cluster_trace(synergy_jobs, 10.0, 0, gpus=256)
    for policy in FIG18_POLICIES:
        chosen = cluster_policy(policy, trace.cluster)
        row = {"setting": "synergy", "gpus": 256, "policy": policy, "place_s": [], "jobs": []}
        place = _timed(chosen.place, row["place_s"], row["jobs"])
        simulate(trace.cluster, list(trace.jobs), fifo, place, sticky=chosen.sticky, round_length=trace.round_length)
        rows.append(row)
        tick("Fig. 18", 1, None)
    return rows


def fig18(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Quick: 64 to 1,024 GPUs, 3 rounds each, 200 Synergy jobs; full: 64 to 27,648, 10
    rounds each, 1,000 jobs."""
    if quick:
        return overhead_rows((64, 256, 1_024), 3, 200, tick)
    return overhead_rows((64, 256, 1_024, 4_096, 27_648), 10, 1_000, tick)


def round_key(instance: PlacementInstance) -> tuple[Any, ...]:
    """What a round's exact optimum depends on (ids, order and, under the ``slowdown``
    objective, remaining work do not): non-sticky rounds repeat until a job comes or goes."""
    jobs = sorted(
        (j.gpus, j.job_class, j.model, j.work if instance.objective == "work" else 0.0) for j in instance.jobs
    )
    cluster = (instance.nodes, instance.gpus_per_node, tuple(sorted(instance.pm_scores.items())))
    penalties = (instance.locality_penalty, tuple(sorted(instance.model_penalties.items())))
    return (cluster, penalties, instance.objective, tuple(jobs), tuple(sorted(instance.unavailable)))


def gap_rows(
    sia: SiaPhilly, workloads: Sequence[int], policies: Sequence[str], every: int, time_limit: float, tick: Tick
) -> list[dict[str, Any]]:
    """Each policy's every ``every``-th placed round against ``exact-blocks``: one row per
    (workload, policy) with the round indices, the policy's objective, the exact objective,
    the proven bound and the status; rounds equal under :func:`round_key` are solved once."""
    from analysis.placement.round_gaps import exact_gaps
    from packgap.placement import FAMILY
    from solvers.outcome import SolveOptions

    rows = []
    for w in workloads:
        kept: dict[str, Rounds] = {p: [] for p in policies}
        for policy in policies:
            simulate_policy(sia, sia.cluster, w, policy, "paper", kept[policy])
            kept[policy] = kept[policy][::every]
        unique = {round_key(i): (i, s) for rounds in kept.values() for i, s in rounds}
        tick(f"round gaps, workload {w}", 0, len(unique))
        options = SolveOptions(time_limit=time_limit)
        done = functools.partial(tick, f"round gaps, workload {w}", 1, None)
        solved = exact_gaps(list(unique.values()), options, exact="exact-blocks", on_done=done)
        exact = dict(zip(unique, solved, strict=True))
        for policy, rounds in kept.items():
            gaps = [exact[round_key(i)] for i, _ in rounds]
            row: dict[str, Any] = {"workload": w, "policy": policy, "round_length_s": sia.round_length}
            row["round"] = [int(i.name.removeprefix("round-")) for i, _ in rounds]
            row["objective"] = [FAMILY.evaluate(i, s).objective for i, s in rounds]
            row |= {"exact": [g.exact for g in gaps], "bound": [g.bound for g in gaps]}
            row["status"] = [str(g.status) for g in gaps]
            rows.append(row)
    return rows


def round_gaps(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Quick: workload 1, four policies, every 100th round, 2 s per exact round; full:
    workloads 1, 3 and 5, all six policies, every round, 5 s per exact round."""
    sia = sia_philly()
    if isinstance(sia, str):
        return [{"missing": sia}]
    workloads = [w for w in ((1,) if quick else (1, 3, 5)) if w in sia.workloads] or [min(sia.workloads)]
    policies = ("pal", "pm-first", "packed-sticky", "packed-non-sticky") if quick else tuple(POLICIES)
    return gap_rows(sia, workloads, policies, 100 if quick else 1, 2.0 if quick else 5.0, tick)


#: Section V-B: improvement over Tiresias (%) of the geomean, least and most improved average
#: JCT over the workloads, and of the geomean makespan.
PAPER_FIG11 = {"pal": (43.0, 21.0, 59.0, 47.0), "pm-first": (40.0, 5.0, 59.0, 44.0)}
FIG11_QUANTITIES = (
    ("geomean avg JCT", "mean_jct_s", geomean),
    ("least avg JCT", "mean_jct_s", max),
    ("most avg JCT", "mean_jct_s", min),
    ("geomean makespan", "makespan_s", geomean),
)
#: Section V-B1: improvement over Tiresias (%) at L_across = 1.0 and 3.0.
PAPER_FIG13 = {"pm-first": (30.0, 9.0), "pal": (30.0, 20.0)}


def improvement(rows: Sequence[Mapping[str, Any]], policy: str, metric: str, pick: Any, **where: Any) -> float:
    """100 x (1 - ``pick`` over the workloads of policy / Tiresias)."""
    return 100 * (1 - pick(ratios(rows, policy, metric, **where).values()))


def compare_fig11(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    reason = missing(rows)
    out = []
    for reading in dict.fromkeys(r["readings"] for r in rows if not reason) or ["paper"]:
        tag, note = ("", "") if reading == "paper" else (" [artifact]", "the artifact's readings of PM-First and PAL")
        note = reason or note
        for policy, paper in PAPER_FIG11.items():
            for (q, metric, pick), value in zip(FIG11_QUANTITIES, paper, strict=True):
                ours = None if reason else improvement(rows, policy, metric, pick, readings=reading)
                out.append(
                    PaperValue("Fig. 11", f"{policy} {q} improvement over Tiresias{tag}", value, ours, "%", note)
                )
        pal = {} if reason else ratios(rows, "pal", "mean_jct_s", readings=reading)
        for q, value, pick in (("most", 5.0, min), ("least", 3.0, max)):
            ours = float(pick(pal, key=pal.__getitem__)) if pal else None
            out.append(PaperValue("Fig. 11", f"workload PAL improves {q}{tag}", value, ours, "", note))
    return out


def compare_fig13(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    reason = missing(rows)
    note = reason or "one L_across for all models (the paper's per-model values, IV-D, are not published)"
    out = []
    for policy, paper in PAPER_FIG13.items():
        for lv, value in zip((1.0, 3.0), paper, strict=True):
            ours = None if reason else improvement(rows, policy, "mean_jct_s", geomean, l_across=lv, readings="paper")
            out.append(
                PaperValue("Fig. 13", f"{policy} improvement over Tiresias at L_across {lv:g}", value, ours, "%", note)
            )
    return out


def compare_fig12(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    reason = missing(rows)
    runs = [(r["workload"], r["policy"], r["wait_s"]) for r in rows if not reason]
    runs = runs or [(w, p, []) for w in FIG12_WORKLOADS for p in FIG12_POLICIES]
    note = reason or "the paper plots per-job waits without numbers (workload 5 waits longer)"
    return [
        PaperValue("Fig. 12", f"workload {w} mean wait, {p}", None, fmean(waits) / 3600 if waits else None, "h", note)
        for w, p, waits in runs
    ]


def compare_fig18(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    synergy = {r["policy"]: r["place_s"] for r in rows if r["setting"] == "synergy"}
    note = "every round of a Synergy trace (1,000 jobs; 200 quick), one core"
    out = [
        PaperValue("Fig. 18", "PAL median seconds per round, 256 GPUs", 2.8, median(synergy["pal"]), "s", note),
        PaperValue("Fig. 18", "PAL worst seconds per round, 256 GPUs", 4.0, max(synergy["pal"]), "s", note),
        PaperValue("Fig. 18", "PM-First worst seconds per round, 256 GPUs", 2.0, max(synergy["pm-first"]), "s", note),
    ]
    for r in (r for r in rows if r["setting"] == "generated"):
        what = f"{r['policy']} median seconds per full round, {r['gpus']:,} GPUs"
        out.append(PaperValue("Fig. 18", what, None, median(r["place_s"]), "s", "generated, jobs = GPUs / 3"))
        what = f"{r['policy']} PM-score binning (once per cluster), {r['gpus']:,} GPUs"
        out.append(PaperValue("Fig. 18", what, None, median(r["bins_s"]), "s"))
    return out


def compare_round_gaps(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    reason = missing(rows)
    note = reason or "new figure (not in the paper): per-round gap to exact-blocks"
    out = []
    for policy in dict.fromkeys(r["policy"] for r in rows if not reason) or ["pal", "pm-first"]:
        mine = [r for r in rows if r.get("policy") == policy]
        for q, gaps, pick in (("mean", primal, fmean), ("worst", primal, max), ("mean certified", certified, fmean)):
            ours = None if reason else 100 * pick(gaps(mine))
            out.append(PaperValue("round gaps", f"{policy} {q} per-round gap", None, ours, "%", note))
    return out


REPRODUCTIONS = tuple(
    Reproduction(name, "PAL", item, title, compute, draw, compare)
    for name, item, title, compute, draw, compare in (
        ("pal-fig11", "Fig. 11", "Average JCT per policy vs Tiresias", fig11, figures.draw_fig11, compare_fig11),
        ("pal-fig12", "Fig. 12", "Wait time per job, workloads 3 and 5", fig12, figures.draw_fig12, compare_fig12),
        ("pal-fig13", "Fig. 13", "Average JCT vs locality penalty", fig13, figures.draw_fig13, compare_fig13),
        ("pal-fig18", "Fig. 18", "Placement time per round vs cluster size", fig18, figures.draw_fig18, compare_fig18),
        (
            "pal-round-gaps",
            "new",
            "Per-round gap to exact-blocks along traces",
            round_gaps,
            figures.draw_round_gaps,
            compare_round_gaps,
        ),
    )
)
