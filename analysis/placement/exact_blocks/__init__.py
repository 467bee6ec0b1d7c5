"""``exact-blocks``: the Lagrangian ascent, repairs and pruned MILP that solve one PAL round.

The models they solve (job types, walks, the block-path MILP, the Lagrangian's value at given
prices, reduced-cost pruning) are built in ``packgap.models.placement``; the transport solves, the
ascent, the repair heuristic and the search that settles the MILP's outcome are here
(DESIGN.md: ``models`` build only).
"""
