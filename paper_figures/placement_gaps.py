"""New figure: per-round optimality gaps of PAL, PM-First and the baselines along the
Sia-Philly workloads (64 GPUs, FIFO, the artifact's slowdown table), each sampled round
solved by the exact per-round MILP.

    python paper_figures/placement_gaps.py --traces ../shared/traces/pal --out placement_gaps.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from analysis.placement.round_gaps import round_gaps
from heuristics.placement import cluster_policy
from heuristics.placement.schedulers import fifo
from instances.placement.sim import ARTIFACT_ROUND, cluster_from_table, sim_jobs
from instances.placement.traces import read_gpu_table, read_workload
from solvers.outcome import SolveOptions

POLICIES = ("pal", "pm-first", "packed-non-sticky", "random-non-sticky")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=Path, default=Path("../shared/traces/pal"))
    parser.add_argument("--out", type=Path, default=Path("placement_gaps.png"))
    parser.add_argument("--workloads", type=int, nargs="+", default=[1, 3, 5])
    parser.add_argument("--every", type=int, default=10, help="solve every n-th placed round")
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    cluster = cluster_from_table(read_gpu_table(args.traces / "blox-sim-inputs" / "gpu_perfvar_64gpu_seed42.csv"))
    options = SolveOptions(time_limit=args.time_limit)
    gaps: dict[str, list[float]] = {p: [] for p in POLICIES}
    for w in args.workloads:
        jobs = sim_jobs(read_workload(args.traces / "sia_philly_workloads" / f"workload-{w}.csv"))
        for name in POLICIES:
            policy = cluster_policy(name, cluster)
            _, rows = round_gaps(
                cluster,
                jobs,
                fifo,
                policy.place,
                sticky=policy.sticky,
                options=options,
                round_length=ARTIFACT_ROUND,
                every=args.every,
            )
            gaps[name] += [r.primal_gap for r in rows if r.primal_gap is not None]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.boxplot([100 * np.asarray(v) for v in gaps.values()], tick_labels=list(gaps))
    ax.set_ylabel("per-round gap to the exact placement (%)")
    ax.set_title("Sia-Philly rounds, 64 GPUs, FIFO")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    for name, values in gaps.items():
        v = 100 * np.asarray(values)
        stats = f"mean {v.mean():6.2f} %  median {np.median(v):6.2f} %  max {v.max():6.2f} %"
        print(f"{name:18s} rounds {len(v):4d}  {stats}")


if __name__ == "__main__":
    main()
