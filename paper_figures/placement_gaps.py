"""New figure: per-round gaps of PAL, PM-First and the baselines to the exact round optimum
(exact-blocks) along Sia-Philly traces, with certified-bound bands.

Thin wrapper of `packgap figures pal-round-gaps` (analysis/placement/reproduce.py): the computed
rows are stored in OUT/reproductions.duckdb, so a rerun only redraws; OUT/REPRODUCTION.md lists
paper vs ours. Trace data: --traces is not taken; set $PACKGAP_TRACES or keep ../shared/traces.

    python paper_figures/placement_gaps.py [--quick] [--out DIR] [--recompute]
"""

import sys

from packgap.analysis.cli import main

if __name__ == "__main__":
    main(["figures", "pal-round-gaps", *sys.argv[1:]])
