"""New figure: gap of CUCKOO's MCHP, FIFO and EDF planning to the proven optimum against the number
of groups (A800 x1 + RTX4090 x2), with CUCKOO Table 13's quantities beside.

Thin wrapper of `packgap figures planning-gaps` (analysis/planning/reproduce.py): the computed
rows are stored in OUT/reproductions.duckdb, so a rerun only redraws; OUT/REPRODUCTION.md lists
paper vs ours. Trace data: --traces is not taken; set $PACKGAP_TRACES or keep ../shared/traces.

    python paper_figures/planning_gaps.py [--quick] [--out DIR] [--recompute]
"""

import sys

from packgap.analysis.cli import main

if __name__ == "__main__":
    main(["figures", "planning-gaps", *sys.argv[1:]])
