"""How far the sharing branch and bound proves the optimum: jobs x seeds, one thread.

The instances are the README's small sharing table: ``generate(jobs, seed, nodes=4,
hours=0.5, workload="physical")`` (16 GPUs, the testbed workload of Table II). Per instance:
proven or not, wall seconds (the best-heuristic incumbent included), search nodes, the root
node's bound gap and, when the search stops early, the gap to the best bound it proved.
Gaps are on the average JCT, relative to the best schedule found.

    python -m analysis.sharing.exact_scaling --jobs 6 7 8 --seeds 1-10 --time-limit 60
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import asdict, dataclass

from analysis.sharing.methods import best_heuristic
from instances.sharing.generator import generate
from models.sharing.branch_bound import solve
from packgap.sharing import SharingInstance


@dataclass(frozen=True)
class Row:
    jobs: int
    seed: int
    proven: bool
    seconds: float
    nodes: int
    root_gap: float
    final_gap: float


def instance(jobs: int, seed: int) -> SharingInstance:
    return generate(jobs, seed, nodes=4, hours=0.5, workload="physical")


def measure(jobs: int, seed: int, time_limit: float) -> Row:
    inst = instance(jobs, seed)
    start = time.perf_counter()
    incumbent = best_heuristic(inst)
    out = solve(inst, incumbent, time_limit=time_limit - (time.perf_counter() - start))
    seconds = time.perf_counter() - start
    arrivals = sum(j.arrival for j in inst.jobs)

    def gap(bound: float) -> float:
        return (out.sum_completion - bound) / (out.sum_completion - arrivals)

    return Row(jobs, seed, out.proven, seconds, out.nodes, gap(out.root_bound), gap(out.lower_bound))


def summary(rows: list[Row]) -> str:
    lines = [
        "| jobs | proven | median s | max s | median nodes | max nodes | median root gap |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in sorted({r.jobs for r in rows}):
        mine = [r for r in rows if r.jobs == n]
        lines.append(
            f"| {n} | {sum(r.proven for r in mine)}/{len(mine)} "
            f"| {statistics.median(r.seconds for r in mine):.2f} | {max(r.seconds for r in mine):.2f} "
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
    parser.add_argument("--json", help="also write every row to this file")
    args = parser.parse_args(argv)
    rows = []
    for n in args.jobs:
        for seed in args.seeds:
            rows.append(measure(n, seed, args.time_limit))
            r = rows[-1]
            print(
                f"jobs {n} seed {seed}: {'proven' if r.proven else 'open'} {r.seconds:.2f} s {r.nodes:,} nodes "
                f"root gap {100 * r.root_gap:.1f} % final gap {100 * r.final_gap:.2f} %",
                flush=True,
            )
    print(summary(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([asdict(r) for r in rows], f, indent=1)


if __name__ == "__main__":
    main()
