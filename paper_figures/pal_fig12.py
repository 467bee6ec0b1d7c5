"""PAL Fig. 12: wait time per job of Sia-Philly workloads 3 and 5 under PM-First, PAL and Tiresias.

Thin wrapper of `packgap figures pal-fig12` (analysis/placement/reproduce.py): the computed rows
are stored in OUT/reproductions.duckdb, so a rerun only redraws; OUT/REPRODUCTION.md lists paper
vs ours. Trace data: --traces is not taken; set $PACKGAP_TRACES or keep ../shared/traces.

    python paper_figures/pal_fig12.py [--quick] [--out DIR] [--recompute]
"""

import sys

from packgap.analysis.cli import main

if __name__ == "__main__":
    main(["figures", "pal-fig12", *sys.argv[1:]])
