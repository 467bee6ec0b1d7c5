"""PAL's Fig. 18: seconds per placement round of PAL and PM-First against the cluster size.

Figure numbers: the issue calls the overhead figure "Fig. 12", but in the paper Fig. 12 shows
the wait times of workloads 3 and 5 and Fig. 18 the placement overhead against cluster size
(section V-C); both are reproduced under the paper's numbers. The paper does not list the
cluster sizes of Fig. 18; we take 64 to 27,648 GPUs (Summit's count, section III-B).
:func:`compare_fig18` also prints how the time grows with the cluster: the exponent of a
power law fitted to the median seconds per round from 1,024 GPUs up (GPUs x log GPUs grows
with exponent 1.12 from 1,024 to 27,648).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from statistics import median
from typing import Any

import numpy as np

from packgap.analysis.kit import PaperValue, Tick
from packgap.heuristics.placement import POLICIES, cluster_policy
from packgap.placement import PlacementInstance, PlacementSolution
from packgap.placement.simulator import Place

FIG18_POLICIES = ("pal", "pm-first")


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
    from packgap.heuristics.placement.schedulers import fifo
    from packgap.instances.placement.rounds import generate_round
    from packgap.instances.placement.synergy import synergy_cluster_trace
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


def _sizes(quick: bool) -> tuple[tuple[int, ...], int, int]:
    """Quick: 64 to 1,024 GPUs, 3 rounds each, 200 Synergy jobs; full: 64 to 27,648, 10
    rounds each, 1,000 jobs."""
    return ((64, 256, 1_024), 3, 200) if quick else ((64, 256, 1_024, 4_096, 27_648), 10, 1_000)


def fig18_size(quick: bool) -> dict[str, Any]:
    gpus, rounds, jobs = _sizes(quick)
    return {"GPUs": f"{gpus[0]}-{gpus[-1]}", "rounds": rounds, "Synergy jobs": jobs}


def fig18(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    return overhead_rows(*_sizes(quick), tick)


def compare_fig18(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    synergy = {r["policy"]: r["place_s"] for r in rows if r["setting"] == "synergy"}
    note = "every round of a Synergy trace (1,000 jobs; 200 quick), one core"
    out = [
        PaperValue(
            "Fig. 18", "PAL median seconds per round, 256 GPUs", 2.8, median(synergy["pal"]), "s", note, None, True
        ),
        PaperValue("Fig. 18", "PAL worst seconds per round, 256 GPUs", 4.0, max(synergy["pal"]), "s", note, None, True),
        PaperValue(
            "Fig. 18",
            "PM-First worst seconds per round, 256 GPUs",
            2.0,
            max(synergy["pm-first"]),
            "s",
            note,
            None,
            True,
        ),
    ]
    for r in (r for r in rows if r["setting"] == "generated"):
        what = f"{r['policy']} median seconds per full round, {r['gpus']:,} GPUs"
        note = "generated, jobs = GPUs / 3"
        out.append(PaperValue("Fig. 18", what, None, median(r["place_s"]), "s", note, measured=True))
        what = f"{r['policy']} PM-score binning (once per cluster), {r['gpus']:,} GPUs"
        out.append(PaperValue("Fig. 18", what, None, median(r["bins_s"]), "s", measured=True))
    return out + growth_exponents(rows)


def growth_exponents(rows: Sequence[Mapping[str, Any]], smallest: int = 1_024) -> list[PaperValue]:
    """Per policy, the slope of log(median seconds per round) against log(GPUs) over the
    generated sizes of at least ``smallest`` GPUs (none when fewer than two such sizes)."""
    out = []
    for policy in FIG18_POLICIES:
        points = sorted(
            (r["gpus"], median(r["place_s"]))
            for r in rows
            if r["setting"] == "generated" and r["policy"] == policy and r["gpus"] >= smallest
        )
        if len(points) < 2 or min(t for _, t in points) <= 0:
            continue
        slope = float(np.polyfit([math.log(g) for g, _ in points], [math.log(t) for _, t in points], 1)[0])
        what = f"{policy} growth exponent of seconds per round, {points[0][0]:,} to {points[-1][0]:,} GPUs"
        note = "time ~ GPUs^exponent fitted to the medians; GPUs x log GPUs: 1.12 over 1,024-27,648"
        out.append(PaperValue("Fig. 18", what, None, slope, "", note, measured=True))
    return out
