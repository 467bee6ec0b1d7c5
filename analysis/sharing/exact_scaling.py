"""How far the sharing branch and bound proves the optimum: jobs x seeds, one thread.

The instances are the README's small sharing table: ``generate(jobs, seed, nodes=4,
hours=0.5, workload="physical")`` (16 GPUs, the testbed workload of Table II). Per instance:
proven or not, wall and CPU seconds (the best-heuristic incumbent included), search nodes, the root
node's bound gap and, when the search stops early, the gap to the best bound it proved.
Gaps are on the average JCT, relative to the best schedule found. Then each policy's mean
gap to the proven optima (the README's table).

    python -m packgap.analysis.sharing.exact_scaling --jobs 6 7 8 --seeds 1-10 --time-limit 60
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import asdict, dataclass

from packgap.analysis.sharing.runs import NON_PREEMPTIVE, best_heuristic
from packgap.heuristics.sharing.tiresias import tiresias
from packgap.instances.sharing.generator import generate
from packgap.models.sharing.branch_bound import MAX_NODES, solve
from packgap.sharing import FAMILY, SharingInstance

#: The README table's columns: every policy with its default parameters.
POLICIES = {
    "FIFO": NON_PREEMPTIVE["fifo"],
    "SJF": NON_PREEMPTIVE["sjf"],
    "Tiresias": tiresias,
    "SJF-FFS": NON_PREEMPTIVE["sjf-ffs"],
    "SJF-BSBF": NON_PREEMPTIVE["sjf-bsbf"],
}


@dataclass(frozen=True)
class Row:
    jobs: int
    seed: int
    proven: bool
    seconds: float
    cpu_seconds: float
    nodes: int
    root_gap: float
    final_gap: float
    objective: float


def instance(jobs: int, seed: int) -> SharingInstance:
    return generate(jobs, seed, nodes=4, hours=0.5, workload="physical")


def measure(jobs: int, seed: int, time_limit: float, every_batch: bool = True, max_nodes: int = MAX_NODES) -> Row:
    inst = instance(jobs, seed)
    start, cpu = time.perf_counter(), time.process_time()
    incumbent = best_heuristic(inst)
    left = time_limit - (time.perf_counter() - start)
    out = solve(inst, incumbent, time_limit=left, every_batch=every_batch, max_nodes=max_nodes)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    arrivals = sum(j.arrival for j in inst.jobs)

    def gap(bound: float) -> float:
        return (out.sum_completion - bound) / (out.sum_completion - arrivals)

    objective = (out.sum_completion - arrivals) / jobs
    return Row(jobs, seed, out.proven, seconds, cpu, out.nodes, gap(out.root_bound), gap(out.lower_bound), objective)


def mean_excess(rows: list[Row], jobs: int) -> dict[str, float]:
    """Each policy's mean (policy - optimum) / optimum over the proven seeds of ``jobs`` jobs
    (Tiresias preempts, so it may go below the non-preemptive optimum)."""
    proven = [r for r in rows if r.jobs == jobs and r.proven]
    excess = {name: 0.0 for name in POLICIES}
    for r in proven:
        inst = instance(jobs, r.seed)
        for name, policy in POLICIES.items():
            excess[name] += FAMILY.evaluate(inst, policy(inst)).objective / r.objective - 1
    return {name: total / max(1, len(proven)) for name, total in excess.items()}


def policy_gaps(rows: list[Row]) -> str:
    """README's table: :func:`mean_excess` per job count."""
    lines = ["| jobs, 16 GPUs | " + " | ".join(POLICIES) + " |", "|---" * (len(POLICIES) + 1) + "|"]
    for n in sorted({r.jobs for r in rows}):
        proven = sum(r.proven for r in rows if r.jobs == n)
        cells = " | ".join(f"{100 * g:.1f} %" for g in mean_excess(rows, n).values())
        lines.append(f"| {n} ({proven} seeds proven) | {cells} |")
    return "\n".join(lines)


def summary(rows: list[Row]) -> str:
    lines = [
        "| jobs | proven | median s | max s | median CPU s | median nodes | max nodes | median root gap |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n in sorted({r.jobs for r in rows}):
        mine = [r for r in rows if r.jobs == n]
        lines.append(
            f"| {n} | {sum(r.proven for r in mine)}/{len(mine)} "
            f"| {statistics.median(r.seconds for r in mine):.2f} | {max(r.seconds for r in mine):.2f} "
            f"| {statistics.median(r.cpu_seconds for r in mine):.2f} "
            f"| {statistics.median(r.nodes for r in mine):,.0f} | {max(r.nodes for r in mine):,} "
            f"| {100 * statistics.median(r.root_gap for r in mine):.1f} % |"
        )
    return "\n".join(lines)


def _seeds(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[6, 7, 8])
    parser.add_argument("--seeds", type=_seeds, default=_seeds("1-10"), help="e.g. 1-10")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument(
        "--every-batch",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="try every ladder sub-batch that fits (--no-every-batch: the largest that fits)",
    )
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=MAX_NODES,
        help="search nodes per instance (a stop that does not depend on the machine's load)",
    )
    parser.add_argument("--json", help="also write every row to this file")
    args = parser.parse_args(argv)
    rows = []
    for n in args.jobs:
        for seed in args.seeds:
            rows.append(measure(n, seed, args.time_limit, args.every_batch, args.max_nodes))
            r = rows[-1]
            print(
                f"jobs {n} seed {seed}: {'proven' if r.proven else 'open'} {r.seconds:.2f} s "
                f"(CPU {r.cpu_seconds:.2f} s) {r.nodes:,} nodes "
                f"root gap {100 * r.root_gap:.1f} % final gap {100 * r.final_gap:.2f} %",
                flush=True,
            )
    print(summary(rows))
    print(policy_gaps(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([asdict(r) for r in rows], f, indent=1)


if __name__ == "__main__":
    main()
