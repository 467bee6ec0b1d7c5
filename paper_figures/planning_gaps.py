"""New figure: how far CUCKOO's MCHP, FIFO and EDF planning are from the exact optimum.

Runs (or resumes) a sweep of generated planning instances into a DuckDB store, then draws
the mean primal gap of every method against the number of groups. Rerunning recomputes
nothing already stored.

    python paper_figures/planning_gaps.py --store planning.duckdb --out planning_gaps.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

from analysis.report import gap_table, load_rows, plot_gaps
from analysis.store import ResultStore
from analysis.sweep import Cell, run_sweep
from instances.planning.generator import generate
from packgap.planning import FAMILY
from solvers.outcome import SolveOptions

#: A scarce cluster (3 GPUs) so groups queue and the order matters.
GPU_TYPES = (("A800", 1), ("RTX4090", 2))
METHODS = ("mchp", "fifo", "edf", "exact-flow", "exact-cpsat")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, default=Path("planning_gaps.duckdb"))
    parser.add_argument("--out", type=Path, default=Path("planning_gaps.png"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 6, 8, 10, 12])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    cells = [
        Cell("planning", FAMILY.instance_to_dict(generate(n, seed=s, gpu_types=GPU_TYPES)), m)
        for n in args.sizes
        for s in range(args.seeds)
        for m in METHODS
    ]
    store = ResultStore(args.store)
    try:
        run_sweep(cells, SolveOptions(time_limit=args.time_limit), store, workers=args.workers)
        frame = load_rows(store)
    finally:
        store.close()
    plot_gaps(frame, "groups", args.out)
    print(gap_table(frame, "groups").to_string(index=False))


if __name__ == "__main__":
    main()
