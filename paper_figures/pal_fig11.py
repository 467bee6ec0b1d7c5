"""PAL Fig. 11 and Fig. 13: average JCT of each placement policy normalised to Tiresias
(Packed-Sticky) on the eight Sia-Philly workloads (64 GPUs = 16 x 4, FIFO, Longhorn
profiles), and its geomean as the locality penalty L_across varies from 1.0 to 3.0.

Uses the PAL artifact's slowdown table and model constants (360 s rounds); ``--artifact``
runs PM-First and PAL with the artifact's own readings instead of the paper's.

    python paper_figures/pal_fig11.py --traces ../shared/traces/pal --out pal_fig11.png
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from heuristics.placement import POLICIES, cluster_policy
from heuristics.placement.schedulers import fifo
from instances.placement.sim import ARTIFACT_ROUND, artifact_extra_jobs, cluster_from_table, sim_jobs
from instances.placement.traces import read_gpu_table, read_sia_philly
from packgap.placement.simulator import Cluster, SimJob, simulate


def mean_jct(cluster: Cluster, jobs: list[SimJob], name: str, artifact: bool) -> float:
    policy = cluster_policy(name, cluster, artifact=artifact)
    return simulate(cluster, jobs, fifo, policy.place, sticky=policy.sticky, round_length=ARTIFACT_ROUND).mean_jct


def normalised(cluster: Cluster, workloads: dict[str, list[SimJob]], artifact: bool) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {p: [] for p in POLICIES}
    for jobs in workloads.values():
        base = mean_jct(cluster, jobs, "packed-sticky", artifact)
        for p in POLICIES:
            out[p].append(mean_jct(cluster, jobs, p, artifact) / base)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=Path, default=Path("../shared/traces/pal"))
    parser.add_argument("--out", type=Path, default=Path("pal_fig11.png"))
    parser.add_argument("--artifact", action="store_true")
    parser.add_argument("--penalties", type=float, nargs="+", default=[1.0, 1.5, 2.0, 2.5, 3.0])
    args = parser.parse_args()
    cluster = cluster_from_table(read_gpu_table(args.traces / "blox-sim-inputs" / "gpu_perfvar_64gpu_seed42.csv"))
    workloads = {}
    for name, trace in read_sia_philly(args.traces).items():
        jobs = sim_jobs(trace)
        workloads[name] = jobs + artifact_extra_jobs(jobs, 4000)
    fig, (ax11, ax13) = plt.subplots(1, 2, figsize=(13, 4))
    ratios = normalised(cluster, workloads, args.artifact)
    width = 0.8 / len(POLICIES)
    for k, (p, values) in enumerate(ratios.items()):
        geo = float(np.exp(np.mean(np.log(values))))
        ax11.bar(np.arange(len(values) + 1) + k * width, [*values, geo], width, label=p)
        print(f"{p:18s} " + " ".join(f"{v:.3f}" for v in values) + f"  geomean {geo:.3f}")
    ax11.set_xticks(np.arange(len(workloads) + 1) + 0.4, [*range(1, len(workloads) + 1), "geo"])
    ax11.set_ylabel("avg JCT / Tiresias")
    ax11.set_title("Fig. 11: Sia-Philly, FIFO, 64 GPUs")
    ax11.legend(fontsize=7)
    for p in POLICIES:
        geos = []
        for penalty in args.penalties:
            values = normalised(replace(cluster, locality_penalty=penalty), workloads, args.artifact)[p]
            geos.append(float(np.exp(np.mean(np.log(values)))))
        ax13.plot(args.penalties, geos, marker="o", label=p)
    ax13.set_xlabel("L_across")
    ax13.set_ylabel("geomean avg JCT / Tiresias")
    ax13.set_title("Fig. 13: varying locality penalty")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)


if __name__ == "__main__":
    main()
