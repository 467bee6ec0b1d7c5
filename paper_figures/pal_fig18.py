"""PAL Fig. 18: PAL's and PM-First's placement time per scheduling round against cluster size (64
to 27,648 GPUs) and along a 256-GPU Synergy trace.

Thin wrapper of `packgap figures pal-fig18` (analysis/placement/reproduce.py): the computed rows
are stored in OUT/reproductions.duckdb, so a rerun only redraws; OUT/REPRODUCTION.md lists paper
vs ours. Trace data: --traces is not taken; set $PACKGAP_TRACES or keep ../shared/traces.

    python paper_figures/pal_fig18.py [--quick] [--out DIR] [--recompute]
"""

import sys

from packgap.analysis.cli import main

if __name__ == "__main__":
    main(["figures", "pal-fig18", *sys.argv[1:]])
