"""PAL Fig. 11 and Fig. 13: average JCT per placement policy normalised to Tiresias on the eight
Sia-Philly workloads, and its geomean as L_across varies from 1.0 to 3.0.

Thin wrapper of `packgap figures pal-fig11 pal-fig13` (analysis/placement/reproduce.py): the
computed rows are stored in OUT/reproductions.duckdb, so a rerun only redraws;
OUT/REPRODUCTION.md lists paper vs ours. Trace data: --traces is not taken; set $PACKGAP_TRACES
or keep ../shared/traces.

    python paper_figures/pal_fig11.py [--quick] [--out DIR] [--recompute]
"""

import sys

from packgap.analysis.cli import main

if __name__ == "__main__":
    main(["figures", "pal-fig11", "pal-fig13", *sys.argv[1:]])
