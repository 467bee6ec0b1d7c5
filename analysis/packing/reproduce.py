"""CUCKOO (SoCC '25) reproductions: Table 4, Table 6, the online Tables 9-14, and Table 12's direction.

* ``cuckoo-table4``: Alg. 1-2 (AM) on Table 3, slot by slot against Table 4 (543 ms), and
  Muri-P (section 4.3) on the same two jobs. The paper prints no Muri-P time for Table 3, so
  ours (594 ms, best order) stands without a paper value.
* ``cuckoo-table6``: MCHP's edge weights (eq. 13-14) on Table 5 and the matching it picks;
  the text's "allocating Group A to GPU A Order 1" is read as Group 1.
* ``cuckoo-online``: section 4's online comparison (:mod:`analysis.packing.online`), every
  system on the same generated Table 7-8 workload (the first 130 jobs of the 521-job
  section 4.1 workload when quick, all 521 otherwise), with each mean JCT's certified gap to
  the best reference of :mod:`analysis.packing.online_bound` (proven lower bound, or the
  offline bound of ``exact-ti``).
* ``cuckoo-direction``: issue 13's finding that not packing beats DAB+MCHP, explained by
  one-factor variations (:func:`direction`), and the Muri-trace deadline misses
  (:func:`muri_misses`).

Readings chosen for the online tables (the paper names systems, not pipelines): Table 12's
"Blossom" is Muri's matching under CUCKOO's AM estimate with MCHP ("DAB acts the same as
Blossom" without deadlines, section 4.4, so only the packing changes); Table 14's
"Muri-Hetero" is Blossom with Muri-P and MCHP; "Muri" (Tables 9, 14) is Blossom with Muri-P
and FIFO, blind to heterogeneity (every GPU seen as an RTX 4090, as CUCKOO-Homo); Table 10's
"Muri-P" is CUCKOO with the Muri-P estimator. Tables 9-14 normalise JCT and tail JCT by
CUCKOO's; ours do so per seed, then average over seeds.

Heterogeneity-blind systems run with the ``homogeneous_as`` pipeline option (``blind_as`` in
the rows), which the online policy applies before taking its snapshot of the free GPUs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from analysis.kit import PaperValue, Reproduction, Tick
from analysis.packing import figures

#: CUCKOO Table 3 (ms): S, F, B, C and the section 3.2.1 synchronisation rule.
TABLE3 = {
    "ResNet": ((10.0, 37.0, 76.0, 98.0), "before_forward"),
    "BERT": ((10.0, 72.0, 61.0, 363.0), "before_communication"),
}
#: CUCKOO Table 4 columns and rows (j0 = ResNet, j1 = BERT; BERT starts first).
TABLE4_COLUMNS = ("f0", "b0", "c0", "f1", "b1", "c1", "R")
TABLE4 = (
    (0, 0, 0, 0, 0, 0, 10),
    (0, 0, 0, 72, 0, 0, 72),
    (74, 152, 0, 0, 122, 363, 363),
    (0, 0, 98, 0, 0, 0, 98),
    (0, 0, 0, 0, 0, 0, 10),
    (0, 0, 0, 72, 0, 0, 72),
)
#: CUCKOO Table 6: (group, GPU, order) -> (C1, C2, C1 + C2).
TABLE6 = {
    ("1", "A", 1): (2.0, 0.0, 2.0),
    ("1", "A", 2): (4.5, 0.0, 4.5),
    ("1", "B", 1): (3.0, 0.0, 3.0),
    ("1", "B", 2): (6.5, 1.5, 8.0),
    ("2", "A", 1): (3.0, 0.0, 3.0),
    ("2", "A", 2): (5.5, 0.5, 6.0),
    ("2", "B", 1): (4.0, 0.0, 4.0),
    ("2", "B", 2): (7.5, 2.5, 10.0),
}
BLIND = {"blind_as": "RTX4090"}
#: Online systems: name -> (pipeline, parameters); module docstring for the readings.
SYSTEMS: dict[str, tuple[str, dict[str, Any]]] = {
    "CUCKOO": ("dab+mchp", {}),
    "Muri": ("blossom+fifo", BLIND),
    "Blossom": ("blossom+mchp", {"estimator": "am"}),
    "None": ("none+mchp", {}),
    "Muri-P": ("dab+mchp", {"estimator": "muri-p"}),
    "FIFO": ("dab+fifo", {}),
    "EDF": ("dab+edf", {}),
    "CUCKOO-Homo": ("dab+mchp", BLIND),
    "Muri-Hetero": ("blossom+mchp", {}),
}
_C = (1.0, 0.7716, 1.0)
#: Tables 9-14: system -> (Norm. JCT, deadline satisfaction, Norm. tail JCT).
PAPER_ONLINE: dict[str, dict[str, tuple[float, float, float]]] = {
    "Table 9": {"CUCKOO": _C, "Muri": (1.81, 0.3244, 0.61)},
    "Table 10": {"CUCKOO": _C, "Muri-P": (1.07, 0.7658, 1.23)},
    "Table 12": {"CUCKOO": _C, "Blossom": (1.32, 0.4702, 1.11), "None": (1.79, 0.4856, 1.77)},
    "Table 13": {"CUCKOO": _C, "FIFO": (1.30, 0.4146, 0.79), "EDF": (1.22, 0.6488, 1.35)},
    "Table 14": {"CUCKOO": _C, "CUCKOO-Homo": (1.16, 0.7129, 1.36), "Muri-Hetero": (1.60, 0.3820, 1.56)},
}
PAPER_ONLINE["Table 14"]["Muri"] = PAPER_ONLINE["Table 9"]["Muri"]
PAPER_JOBS = 521


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


# --- Table 4 -------------------------------------------------------------------------


def table4(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Table 4's slots (BERT first, lambda = 2) and the iteration times of both estimators."""
    from packgap.packing.interleave import Member, StageProfile, am_iteration, am_trace, muri_p_iteration

    resnet, bert = (Member(StageProfile(*t), s) for t, s in TABLE3.values())  # type: ignore[arg-type]
    trace = am_trace((bert, resnet), interference=2.0)
    rows: list[dict[str, Any]] = []
    for i, s in enumerate(trace.slots[: len(TABLE4)]):
        # Position 0 of the trace is BERT (Table 4's j1), position 1 ResNet (j0).
        cells = (s.forward[1], s.backward[1], s.communication[1], s.forward[0], s.backward[0], s.communication[0])
        rows.append({"kind": "slot", "i": i, **dict(zip(TABLE4_COLUMNS, (*cells, s.duration), strict=True))})
    times = {
        ("AM", "BERT first"): trace.iteration,
        ("AM", "ResNet first"): am_iteration((resnet, bert)),
        ("AM", "ResNet alone"): am_iteration((resnet,)),
        ("AM", "BERT alone"): am_iteration((bert,)),
        ("Muri-P", "best order"): muri_p_iteration((resnet.profile, bert.profile)),
        ("Muri-P", "ResNet alone"): muri_p_iteration((resnet.profile,)),
        ("Muri-P", "BERT alone"): muri_p_iteration((bert.profile,)),
    }
    return rows + [{"kind": "iteration", "model": m, "case": c, "ms": v} for (m, c), v in times.items()]


def iteration(rows: Sequence[Mapping[str, Any]], model: str, case: str) -> float:
    return float(next(r["ms"] for r in rows if r["kind"] == "iteration" and (r["model"], r["case"]) == (model, case)))


def compare_table4(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    slots = [r for r in rows if r["kind"] == "slot"]
    cells = [
        (r[c], p) for r, line in zip(slots, TABLE4, strict=True) for c, p in zip(TABLE4_COLUMNS, line, strict=True)
    ]
    out = [PaperValue("Table 4", f"R_{r['i']}", float(TABLE4[r["i"]][-1]), r["R"], "ms") for r in slots]
    out.append(
        PaperValue("Table 4", "cells equal to the paper's", float(len(cells)), float(sum(a == b for a, b in cells)))
    )
    am = iteration(rows, "AM", "BERT first")
    out.append(PaperValue("Table 4", "AM iteration (BERT first)", 543.0, am, "ms"))
    other = iteration(rows, "AM", "ResNet first")
    out.append(PaperValue("Table 4", "AM iteration (ResNet first)", None, other, "ms", "the paper shows one order"))
    alone = iteration(rows, "AM", "ResNet alone") + iteration(rows, "AM", "BERT alone")
    out.append(PaperValue("eq. 1", "AM eff_value of the pair", None, alone / am))
    alone = iteration(rows, "Muri-P", "ResNet alone") + iteration(rows, "Muri-P", "BERT alone")
    muri = alone / iteration(rows, "Muri-P", "best order")
    out.append(PaperValue("eq. 1", "Muri-P eff_value of the pair", None, muri, "", "Muri-P promises more from pairing"))
    note = "the paper prints no Muri-P time for Table 3 (Fig. 4a is a diagram)"
    out.append(PaperValue("Table 3", "Muri-P iteration", None, iteration(rows, "Muri-P", "best order"), "ms", note))
    return out


# --- Table 6 -------------------------------------------------------------------------


def table5_instance() -> Any:
    """CUCKOO Table 5: two groups, one GPU A and one GPU B, both deadlines 5."""
    from packgap.gpus import GpuType
    from packgap.planning import Group, PlanningInstance

    groups = (Group("1", (2.0, 3.0), 5.0, ("1",)), Group("2", (3.0, 4.0), 5.0, ("2",)))
    return PlanningInstance("cuckoo-table5", (GpuType("A", 1), GpuType("B", 1)), groups)


def table6(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Every edge's C1, C2 and weight, MCHP's matching, and every matching of least cost."""
    from heuristics.planning import mchp, mchp_edge_costs
    from heuristics.planning.mchp import mchp_slots

    instance = table5_instance()
    slots = [(instance.type_names[k], n) for k, n in mchp_slots(instance)]
    c1, c2, total = mchp_edge_costs(instance)
    rows: list[dict[str, Any]] = [
        {"kind": "edge", "group": g.id, "gpu": x, "order": n, "c1": c1[i, s], "c2": c2[i, s], "weight": total[i, s]}
        for i, g in enumerate(instance.groups)
        for s, (x, n) in enumerate(slots)
    ]
    rows += [
        {"kind": "match", "group": gid, "gpu": seq.gpu_type, "order": n}
        for seq in mchp(instance).sequences
        for n, gid in enumerate(seq.groups, 1)
    ]
    cost = {pick: float(total[0, pick[0]] + total[1, pick[1]]) for pick in itertools.permutations(range(len(slots)), 2)}
    best = min(cost.values())
    return rows + [
        {"kind": "optimum", "cost": best, "slots": [list(slots[s]) for s in pick]}
        for pick, c in cost.items()
        if c == best
    ]


def compare_table6(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    edges = {(r["group"], r["gpu"], r["order"]): r for r in rows if r["kind"] == "edge"}
    out = [
        PaperValue("Table 6", f"group {g} -> (GPU {x}, order {n}) C1 + C2", paper[2], edges[g, x, n]["weight"])
        for (g, x, n), paper in TABLE6.items()
    ]
    cells = [edges[key][c] == v for key, p in TABLE6.items() for c, v in zip(("c1", "c2", "weight"), p, strict=True)]
    out.append(PaperValue("Table 6", "cells equal to the paper's", float(len(cells)), float(sum(cells))))
    match = {r["group"]: (r["gpu"], r["order"]) for r in rows if r["kind"] == "match"}
    optima = [r for r in rows if r["kind"] == "optimum"]
    note = f"ours: {sorted(match.items())}; {len(optima)} matchings cost {optima[0]['cost']:g}, ties in queue order"
    cost = sum(edges[g, x, n]["weight"] for g, (x, n) in match.items())
    out.append(PaperValue("Table 6", "cost of MCHP's matching (1 -> A1, 2 -> B1)", 6.0, cost, "", note))
    return out


# --- online runs (Tables 9-14) -------------------------------------------------------


def online_run(instance: Any, pipeline: str, params: Mapping[str, Any]) -> Any:
    """One online run (60 s rounds) of ``pipeline``; ``blind_as`` names the GPU type a
    heterogeneity-blind system sees everywhere (CUCKOO-Homo, section 4.6)."""
    from analysis.packing.online import pipeline_replan
    from packgap.packing.online import simulate

    given = {k: v for k, v in params.items() if k != "blind_as"}
    if "blind_as" in params:
        given["homogeneous_as"] = params["blind_as"]
    policy, _ = pipeline_replan(pipeline, given)
    return simulate(instance, policy)


def _metrics(instance: Any, run: Any) -> dict[str, float]:
    from analysis.packing.online import online_metrics

    m = online_metrics(instance, run)
    keys = ("objective", "mean_jct_s", "p99_jct_s", "deadline_satisfaction", "late_jobs", "pairs", "mean_queue")
    return {k: m[k] for k in keys}


def online_instance(seed: int, jobs: int) -> Any:
    """The first ``jobs`` jobs of the 521-job section 4.1 workload of ``seed``."""
    from instances.packing.generator import generate

    full = generate(PAPER_JOBS, seed)
    return replace(full, name=f"cuckoo-online-n{jobs}-s{seed}", jobs=full.jobs[:jobs])


def online(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """:func:`online_rows` on the first burst (quick) or on the whole 521-job workload."""
    return online_rows((1,), 130, 10.0, tick) if quick else online_rows((1, 2, 3), PAPER_JOBS, 120.0, tick)


def online_rows(seeds: Sequence[int], jobs: int, exact_limit: float | None, tick: Tick) -> list[dict[str, Any]]:
    """Every system of :data:`SYSTEMS` online on each seed's workload, and the references
    (the offline bound of ``exact-ti`` within ``exact_limit`` s; None: the lower bound only)."""
    from analysis.packing.online_bound import references
    from solvers.outcome import SolveOptions

    rows: list[dict[str, Any]] = []
    tick("cuckoo-online", 0, len(seeds) * (len(SYSTEMS) + 1))
    for seed in seeds:
        instance = online_instance(seed, jobs)
        for system, (pipeline, params) in SYSTEMS.items():
            metrics = _metrics(instance, online_run(instance, pipeline, params))
            rows.append({"kind": "run", "seed": seed, "jobs": jobs, "system": system, "pipeline": pipeline, **metrics})
            tick(f"online {system}, seed {seed}", 1, None)
        exact = None if exact_limit is None else "exact-ti"
        for ref in references(instance, exact=exact, options=SolveOptions(time_limit=exact_limit)):
            rows.append({"kind": "reference", "seed": seed, "reference": ref.kind, "mean_jct_s": ref.mean_jct_s})
        tick(f"online references, seed {seed}", 1, None)
    return rows


def online_summary(rows: Sequence[Mapping[str, Any]], system: str) -> dict[str, float]:
    """Seed means: metrics, JCT and tail JCT over CUCKOO's of the same seed, and the mean JCT's
    certified gap to the best (highest) reference of that seed."""
    from packgap.result import certified_gap

    runs = {(r["seed"], r["system"]): r for r in rows if r["kind"] == "run"}
    seeds = sorted(s for s, name in runs if name == system)
    bound = {s: max(r["mean_jct_s"] for r in rows if r["kind"] == "reference" and r["seed"] == s) for s in seeds}
    mine = [runs[s, system] for s in seeds]
    ours = [runs[s, "CUCKOO"] for s in seeds]
    return {
        "norm_jct": _mean([m["mean_jct_s"] / c["mean_jct_s"] for m, c in zip(mine, ours, strict=True)]),
        "norm_tail": _mean([m["p99_jct_s"] / c["p99_jct_s"] for m, c in zip(mine, ours, strict=True)]),
        "satisfaction": _mean([m["deadline_satisfaction"] for m in mine]),
        "mean_jct_s": _mean([m["mean_jct_s"] for m in mine]),
        "gap": _mean([certified_gap(m["mean_jct_s"], bound[s]) or 0.0 for m, s in zip(mine, seeds, strict=True)]),
    }


def compare_online(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for table, systems in PAPER_ONLINE.items():
        for system, (jct, satisfaction, tail) in systems.items():
            s = online_summary(rows, system)
            note = f"mean JCT {s['mean_jct_s']:.0f} s, certified gap {100 * s['gap']:.0f} % to the best bound"
            out.append(PaperValue(table, f"{system} Norm. JCT", jct, s["norm_jct"], "", note))
            out.append(PaperValue(table, f"{system} deadline satisfaction", satisfaction, s["satisfaction"]))
            out.append(PaperValue(table, f"{system} Norm. tail JCT", tail, s["norm_tail"]))
    return out


# --- the direction of Table 12 (issue 13) --------------------------------------------

#: Table 12's protocol: only the packing changes, MCHP plans.
DIRECTION_PIPELINES = ("dab+mchp", "blossom+mchp", "none+mchp")
TABLE7 = "A800:2,RTX4090:8,A10:6"
#: The generator's own settings (section 4.1 as instances.packing.generator reads it).
BASE: dict[str, Any] = {
    "duration_median_s": 180.0,
    "arrival_scale": 1.0,
    "gpu_mix": TABLE7,
    "models": "all",
    "demands": "2",
    "interference": 2.0,
    "ground_truth": "am",
}
#: One factor at a time away from :data:`BASE` (the jobs factor is per base, :data:`JOBS`).
FACTORS: dict[str, tuple[Any, ...]] = {
    "duration_median_s": (60.0, 120.0, 360.0, 720.0),
    "arrival_scale": (0.25, 0.5, 2.0),
    "gpu_mix": ("RTX4090:16", "A10:16", "A800:16"),
    "models": ("data-loading-bound", "GPU-bound"),
    "demands": ("1", "1:0.5,2:0.3,4:0.2"),
    "interference": (1.0, 1.5, 3.0),
    "ground_truth": ("muri-p",),
}
#: Table 8 models by their dominant Muri resource (data loading vs GPU time).
MODEL_SETS = {
    "data-loading-bound": ("a2c", "dqn", "resnet18", "resnet50"),
    "GPU-bound": ("bert", "gpt2", "vgg16", "vgg19"),
}
#: Bases: "issue" is ``generate(N)`` as issue 13 measured it; "paper" the first N jobs of
#: the 521-job workload, whose first 1,000 s hold ~100 jobs (Fig. 8). (base, quick) -> sizes,
#: the first one the base's own.
JOBS = {
    ("issue", True): (40, 20, 100, 200),
    ("issue", False): (40, 20, 100, 200, PAPER_JOBS),
    ("paper", True): (130, 60),
    ("paper", False): (PAPER_JOBS, 130, 260),
}
SEEDS = {("issue", True): (3,), ("issue", False): (1, 2, 3, 4, 5), ("paper", True): (1,), ("paper", False): (1, 2, 3)}
#: eq. 10 weights tried when scoring: alpha per second of mean JCT, beta = 1 per late fraction.
ALPHAS = (1 / 360, 1 / 3600, 1 / 36000)
#: Issue 13's measurements on ``generate(N, seed=3)``: (N, method) -> weighted objective.
ISSUE = {(20, "none+exact-plan"): 0.0832, (20, "dab+mchp"): 0.1471, (40, "none+fifo"): 0.1228, (40, "dab+mchp"): 0.2350}
EXACT = ("none+exact-plan", "dab+exact-plan", "exact-ti")


def workload(base: str, spec: Mapping[str, Any], seed: int) -> Any:
    """The instance of one setting. A model subset keeps those models' jobs (at most ``jobs``)
    of a workload longer by 1 / share and scales arrivals by the share (same arrival rate and
    first burst); ``arrival_scale`` stretches arrivals, each deadline keeping its distance."""
    from instances.packing.generator import TABLE8, generate
    from packgap.gpus import parse_gpu_types

    kept = MODEL_SETS.get(spec["models"])
    share = len(kept) / len(TABLE8) if kept else 1.0
    jobs = spec["jobs"]
    mix = {int(d): float(w or 1) for d, _, w in (p.partition(":") for p in spec["demands"].split(","))}
    inst = generate(
        math.ceil((jobs if base == "issue" else PAPER_JOBS) / share),
        seed,
        gpu_types=parse_gpu_types(spec["gpu_mix"]),
        demands=mix,
        duration_median_s=spec["duration_median_s"],
        interleaving=spec["ground_truth"],
        interference=spec["interference"],
    )
    chosen = [j for j in inst.jobs if kept is None or j.model.rsplit("-bs", 1)[0] in kept][:jobs]
    scale = spec["arrival_scale"] * share
    if scale != 1.0:
        moved = [round(j.arrival * scale, 3) for j in chosen]
        chosen = [
            replace(j, arrival=a, deadline=round(a + j.deadline - j.arrival, 3))
            for j, a in zip(chosen, moved, strict=True)
        ]
    return replace(inst, name=f"{base}-n{jobs}-s{seed}", jobs=tuple(chosen))


def offered_load(instance: Any) -> float:
    """Fluid load: each job's GPU demand over the whole cluster's standalone rate for it
    (sum over types of count / duration), summed, over the arrival span (>= 1 s)."""
    from packgap.packing.timeline import MS, iteration_ms

    work = 0.0
    for job in instance.jobs:
        model, lam = instance.interleaving, instance.interference
        times = [
            job.iterations * iteration_ms([job.member(k)], model, lam) * MS for k in range(len(instance.gpu_types))
        ]
        work += job.gpus / sum(t.count / d for t, d in zip(instance.gpu_types, times, strict=True))
    arrivals = [j.arrival for j in instance.jobs]
    return work / max(1.0, max(arrivals) - min(arrivals))


def median_eff(instance: Any) -> float:
    """Median eq. 1 eff_value of all candidate pairs on their best type (ground truth)."""
    import numpy as np

    from heuristics.packing.scores import pair_scores

    eff = pair_scores(instance, instance.interleaving, 0.0).eff
    return float(np.median(eff)) if len(eff) else 1.0


def offline(instance: Any, method: str, limit: float, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One offline solve, scored by the family evaluator; the solution stays in the result."""
    from analysis.packing.methods import BY_NAME
    from analysis.run import solve
    from packgap.packing import FAMILY
    from solvers.outcome import SolveOptions

    result = solve(FAMILY, instance, BY_NAME[method], options=SolveOptions(time_limit=limit), params=params)
    keys = ("mean_jct_s", "p99_jct_s", "deadline_satisfaction", "late_jobs", "pairs")
    return {
        "objective": result.objective,
        "bound": result.bound,
        "status": str(result.status.value),
        **{k: result.metrics.get(k) for k in keys},
        "solution": FAMILY.solution_from_dict(result.solution) if result.solution else None,
    }


def settings(quick: bool) -> list[tuple[str, str, Any, dict[str, Any]]]:
    """(base, factor, value, spec) of every setting; factor "base" is the base itself; quick
    runs keep each factor's two extreme values."""
    out: list[tuple[str, str, Any, dict[str, Any]]] = []
    for base in ("issue", "paper"):
        own, *others = JOBS[base, quick]
        plain = {**BASE, "jobs": own}
        out.append((base, "base", "-", plain))
        out += [(base, "jobs", n, {**plain, "jobs": n}) for n in others]
        for f, values in FACTORS.items():
            out += [
                (base, f, v, {**plain, f: v})
                for v in dict.fromkeys(values[:: len(values) - 1 or 1] if quick else values)
            ]
    return out


def sweep(
    todo: Sequence[tuple[str, str, Any, Mapping[str, Any]]], seeds: Mapping[str, Sequence[int]], tick: Tick
) -> list[dict[str, Any]]:
    """Settings of :func:`settings` x ``seeds[base]`` x :data:`DIRECTION_PIPELINES`, offline and online."""
    rows = []
    tick("direction sweep", 0, len(todo))
    for base, factor, value, spec in todo:
        for seed in seeds[base]:
            inst = workload(base, spec, seed)
            common = {"kind": "sweep", "base": base, "factor": factor, "value": value, "seed": seed}
            common |= {"jobs": len(inst.jobs), "load": offered_load(inst), "median_eff": median_eff(inst)}
            for p in DIRECTION_PIPELINES:
                run = {k: v for k, v in offline(inst, p, 60.0).items() if k != "solution"}
                rows.append({**common, "mode": "offline", "pipeline": p, **run})
                rows.append({**common, "mode": "online", "pipeline": p, **_metrics(inst, online_run(inst, p, {}))})
        tick(f"direction {base} {factor}={value}", 1, None)
    return rows


def issue_cells(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Issue 13's cells on ``generate(N, 3)``: heuristics, exact planning of their groups and
    the joint optimum (does it pack at all?), under each eq. 10 mode the instance offers."""
    from instances.packing.generator import generate
    from packgap.packing.instance import Objective

    rows = []
    limit = 3.0 if quick else 60.0
    cells: list[tuple[int, Objective]] = [(20, "weighted"), (20, "mean-jct"), (20, "late-count"), (40, "weighted")]
    for n, objective in cells:
        inst = replace(generate(n, 3), objective=objective)
        for m in ("dab+mchp", "none+mchp", "none+fifo") + (EXACT if n == 20 or not quick else ()):
            run = {k: v for k, v in offline(inst, m, limit).items() if k != "solution"}
            rows.append({"kind": "issue", "jobs": n, "objective_mode": objective, "method": m, **run})
            tick(f"issue 13 N={n} {objective} {m}", 0, None)
    return rows


# --- the Muri trace: why every heuristic planner misses 24 of 40 deadlines -----------

MURI_TRACE = "muri/cluster_exp/cluster_trace.csv"
_ONLINE = ("dab+mchp", "blossom+mchp", "none+fifo", "none+edf")
#: (scenario, how it runs, pipeline or method, parameters).
MURI_SCENARIOS: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    *(
        ("offline, 1,000 s batches", "offline", f"{p}+{q}", {})
        for p in ("dab", "blossom", "none")
        for q in ("mchp", "fifo", "edf")
    ),
    *(("offline, one batch", "offline", p, {"window_s": 0.0}) for p in ("dab+mchp", "none+edf")),
    *(("online, 60 s rounds", "online", p, {}) for p in _ONLINE),
    ("offline, without the 32-GPU jobs", "offline-narrow", "dab+mchp", {}),
    ("online, without the 32-GPU jobs", "online-narrow", "dab+mchp", {}),
    ("exact plan of the DAB groups", "offline", "dab+exact-plan", {}),
)


def muri_instance() -> Any:
    """Issue 13's Muri instance (40 jobs, V100:32, seed 1), or None without the trace."""
    from instances.packing import muri
    from instances.traces import traces_dir
    from packgap.errors import PackgapError

    try:
        path = traces_dir(None) / MURI_TRACE
    except PackgapError:
        return None
    return muri.build(path, 1, max_jobs=40, gpu_types=(("V100", 32),)) if path.is_file() else None


def _spans(instance: Any, solution: Any) -> tuple[list[tuple[Any, float, float]], list[Any]]:
    """(group, start, end) per group (it holds its GPUs until its last job ends) and the outcomes."""
    from packgap.packing.evaluate import outcomes

    done = outcomes(instance, solution)
    end: dict[int, float] = {}
    for o in done:
        end[o.group] = max(end.get(o.group, o.start), o.completion)
    return [(g, g.start, end[i]) for i, g in enumerate(solution.groups)], done


def instrument(instance: Any, solution: Any) -> dict[str, float]:
    """Why jobs are late in a schedule.

    * ``doomed``: late jobs that no decision after their arrival could save without
      preemption: alone at their fastest standalone speed on the GPUs that free first once the
      groups started *before* they arrived end, they still finish after their deadline.
    * ``behind_gang``: late jobs that arrived before a group holding a whole GPU type started
      and started only after it ended.
    * ``idle_gpu_h``: GPU-hours left idle while a job that fits them waits (about 0 for a
      work-conserving policy; large when a schedule holds GPUs back for later arrivals).
    """
    from itertools import pairwise

    from packgap.packing.evaluate import TOL
    from packgap.packing.timeline import MS, iteration_ms

    spans, done = _spans(instance, solution)
    index = instance.job_index()
    counts = {t.name: t.count for t in instance.gpu_types}
    whole = [(g, s, e) for g, s, e in spans if len(g.gpus) == counts[g.gpu_type]]
    doomed = behind = 0
    for o in done:
        job = instance.jobs[index[o.job]]
        if o.completion <= job.deadline + TOL:
            continue
        behind += any(job.arrival < s and o.start >= e - TOL and o.job not in g.jobs for g, s, e in whole)
        finish = []
        for k, t in enumerate(instance.gpu_types):
            busy = [job.arrival] * t.count
            for g, s, e in spans:
                if g.gpu_type == t.name and s < job.arrival - TOL:
                    for x in g.gpus:
                        busy[x] = max(busy[x], e)
            if job.gpus <= t.count:
                alone = job.iterations * iteration_ms([job.member(k)], instance.interleaving, instance.interference)
                finish.append(sorted(busy)[job.gpus - 1] + alone * MS)
        doomed += min(finish) > job.deadline + TOL
    start = {o.job: o.start for o in done}
    idle = 0.0
    for t0, t1 in pairwise(
        sorted({*(j.arrival for j in instance.jobs), *(s for _, s, _ in spans), *(e for *_, e in spans)})
    ):
        free = dict(counts)
        for g, s, e in spans:
            free[g.gpu_type] -= len(g.gpus) if s <= t0 < e else 0
        if any(j.arrival <= t0 < start[j.id] and j.gpus <= max(free.values()) for j in instance.jobs):
            idle += sum(free.values()) * (t1 - t0)
    return {"doomed": float(doomed), "behind_gang": float(behind), "idle_gpu_h": idle / 3600.0}


def muri_misses(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Every :data:`MURI_SCENARIOS` run on the Muri instance, instrumented; one row saying
    so when the trace folder is absent."""
    instance = muri_instance()
    if instance is None:
        return [{"kind": "muri", "traces": False}]
    narrow = replace(instance, jobs=tuple(j for j in instance.jobs if j.gpus < 32))
    rows = []
    for scenario, how, method, params in MURI_SCENARIOS:
        inst = narrow if how.endswith("narrow") else instance
        if how.startswith("online"):
            run = online_run(inst, method, params)
            solution, result = run.solution, _metrics(inst, run)
        else:
            result = offline(inst, method, 5.0 if quick else 60.0, params)
            solution = result.pop("solution")
        rows.append(
            {
                "kind": "muri",
                "traces": True,
                "scenario": scenario,
                "method": method,
                **result,
                **instrument(inst, solution),
            }
        )
        tick(f"Muri trace: {scenario} {method}", 0, None)
    return rows


def direction(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """The sweep, issue 13's cells and the Muri-trace instrumentation, as one row set."""
    seeds = {base: SEEDS[base, quick] for base in ("issue", "paper")}
    return sweep(settings(quick), seeds, tick) + issue_cells(quick, tick) + muri_misses(quick, tick)


def verdict(dab: float, none: float) -> str:
    """Table 12's direction on a cost (lower is better): does packing help?"""
    if none > dab * 1.01:
        return "helps"
    return "hurts" if dab > none * 1.01 else "tie"


def direction_summary(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per (base, mode, factor, value): seed means of each pipeline's mean JCT and deadline
    satisfaction, the None / DAB and Blossom / DAB JCT ratios, the time-mean queue of the
    online run without packing (offline cells too: it measures the workload), and Table 12's
    direction under mean JCT, late fraction and eq. 10 with each alpha of :data:`ALPHAS` (beta = 1)."""
    cells: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    queues: dict[tuple[Any, ...], list[float]] = {}
    for r in rows:
        if r["kind"] == "sweep":
            cells.setdefault((r["base"], r["mode"], r["factor"], r["value"]), []).append(r)
        if r["kind"] == "sweep" and (r["mode"], r["pipeline"]) == ("online", "none+mchp"):
            queues.setdefault((r["base"], r["factor"], r["value"]), []).append(r["mean_queue"])
    out = []
    for (base, mode, factor, value), mine in cells.items():
        by = {p: [r for r in mine if r["pipeline"] == p] for p in DIRECTION_PIPELINES}
        jct = {p: _mean([r["mean_jct_s"] for r in rs]) for p, rs in by.items()}
        late = {p: 1.0 - _mean([r["deadline_satisfaction"] for r in rs]) for p, rs in by.items()}
        scores = {f"alpha 1/{round(1 / a)}": [a * jct[p] + late[p] for p in ("dab+mchp", "none+mchp")] for a in ALPHAS}
        scores |= {"mean JCT": [jct["dab+mchp"], jct["none+mchp"]], "late": [late["dab+mchp"], late["none+mchp"]]}
        out.append(
            {
                "base": base,
                "mode": mode,
                "factor": factor,
                "value": value,
                "load": _mean([r["load"] for r in by["dab+mchp"]]),
                "queue": _mean(queues[base, factor, value]),
                "median_eff": _mean([r["median_eff"] for r in by["dab+mchp"]]),
                "none_over_dab": _mean(
                    [n["mean_jct_s"] / d["mean_jct_s"] for d, n in zip(by["dab+mchp"], by["none+mchp"], strict=True)]
                ),
                "blossom_over_dab": jct["blossom+mchp"] / jct["dab+mchp"],
                "satisfaction": {p: 1.0 - v for p, v in late.items()},
                "direction": {name: verdict(*pair) for name, pair in scores.items()},
            }
        )
    return out


def _issue_values(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for r in (r for r in rows if r["kind"] == "issue"):
        note = (
            f"{r['late_jobs']:g} late, {r['pairs']:g} pairs, {r['status']}"
            if r["objective"] is not None
            else r["status"]
        )
        if r["method"] == "exact-ti" and r["bound"] is not None:
            note += f", bound {r['bound']:.4g}"
        if (r["jobs"], r["method"]) in ISSUE and r["objective_mode"] == "weighted":
            note += f"; issue 13 measured {ISSUE[r['jobs'], r['method']]}"
        quantity = f"generate({r['jobs']}, seed 3), {r['objective_mode']}: {r['method']}"
        out.append(PaperValue("issue 13", quantity, None, r["objective"], "", note))
    optima = [r for r in rows if r["kind"] == "issue" and r["method"] == "exact-ti" and r["status"] == "optimal"]
    for r in optima:
        quantity = f"pairs in the proven optimum of generate({r['jobs']}, seed 3), {r['objective_mode']}"
        note = "the proven offline optimum forms no pair: at this load packing cannot help" if r["pairs"] == 0 else ""
        out.append(PaperValue("issue 13", quantity, None, r["pairs"], "", note))
    return out


def _sweep_values(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    out = []
    for s in direction_summary(rows):
        sat = s["satisfaction"]
        signs = ", ".join(f"{k}: {v}" for k, v in s["direction"].items())
        note = (
            f"packing {s['direction']['mean JCT']} (load {s['load']:.2f}, queue without packing {s['queue']:.1f}, "
            f"median pair eff {s['median_eff']:.2f}); "
            f"deadlines met DAB {sat['dab+mchp']:.0%} vs None {sat['none+mchp']:.0%}; {signs}"
        )
        quantity = f"{s['base']} {s['mode']} {s['factor']}={s['value']}: None / DAB mean JCT"
        out.append(PaperValue("Table 12", quantity, 1.79, s["none_over_dab"], "", note))
    return out


def _muri_values(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    muri = [r for r in rows if r["kind"] == "muri"]
    if not muri or not muri[0]["traces"]:
        return [
            PaperValue("issue 13 (Muri trace)", "late jobs of dab+mchp", None, None, "jobs", "traces not available")
        ]
    out = []
    for r in muri:
        note = (
            f"{r['doomed']:g} doomed at arrival (all GPUs held past the deadline by groups started before it arrived), "
            f"{r['behind_gang']:g} behind the 32-GPU group, {r['idle_gpu_h']:.0f} GPU-h idle while a fitting job waited"
        )
        out.append(
            PaperValue(
                "issue 13 (Muri trace)", f"{r['scenario']}: {r['method']} late jobs", None, r["late_jobs"], "jobs", note
            )
        )
    return [*out, _muri_cause({(r["scenario"], r["method"]): r for r in muri})]


def _muri_cause(by: Mapping[tuple[str, str], Mapping[str, Any]]) -> PaperValue:
    """The finding of the Muri-trace rows in one sentence, from their numbers."""
    off, on = by["offline, 1,000 s batches", "dab+mchp"], by["online, 60 s rounds", "dab+mchp"]
    narrow, exact = (
        by["offline, without the 32-GPU jobs", "dab+mchp"],
        by["exact plan of the DAB groups", "dab+exact-plan"],
    )
    note = (
        f"cause: {off['doomed']:g} of {off['late_jobs']:g} late jobs (online {on['doomed']:g} of {on['late_jobs']:g}) "
        "were lost at arrival: work-conserving, non-preemptive heuristics start the long jobs that arrive first on "
        f"every GPU, while the exact plan leaves {exact['idle_gpu_h']:.0f} GPU-h idle (online heuristics "
        f"{on['idle_gpu_h']:.0f}) to keep GPUs for short jobs it knows will arrive (offline clairvoyance). Not gang "
        f"placement: without the 32-GPU jobs {narrow['late_jobs']:g} of 38 still miss; not the planners' time model: "
        f"online, re-planned on the real free GPUs every 60 s, {on['late_jobs']:g} miss. Step 3's batch order adds "
        f"{off['idle_gpu_h']:.0f} GPU-h idle behind the 32-GPU group (no backfilling across batches)"
    )
    return PaperValue(
        "issue 13 (Muri trace)", "late jobs of offline dab+mchp lost at arrival", None, off["doomed"], "jobs", note
    )


def compare_direction(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    return _issue_values(rows) + _sweep_values(rows) + _muri_values(rows)


REPRODUCTIONS = (
    Reproduction(
        "cuckoo-table4",
        "CUCKOO",
        "Table 4",
        "AM interleaving estimate of Table 3's ResNet + BERT, slot by slot (543 ms), and Muri-P",
        table4,
        figures.draw_table4,
        compare_table4,
    ),
    Reproduction(
        "cuckoo-table6",
        "CUCKOO",
        "Table 6",
        "MCHP edge weights (eq. 13-14) on Table 5 and the min-cost matching",
        table6,
        figures.draw_table6,
        compare_table6,
    ),
    Reproduction(
        "cuckoo-online",
        "CUCKOO",
        "Tables 9-14",
        "Online: CUCKOO vs Muri, Blossom, no packing, FIFO, EDF, Muri-P, CUCKOO-Homo, Muri-Hetero, with bounds",
        online,
        figures.draw_online,
        compare_online,
    ),
    Reproduction(
        "cuckoo-direction",
        "CUCKOO",
        "Table 12 (issue 13)",
        "When packing helps: one-factor variations of workload, estimator and objective; Muri-trace misses",
        direction,
        figures.draw_direction,
        compare_direction,
    ),
)
