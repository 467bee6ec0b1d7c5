"""``exact-ti``: the adaptive time-indexed LP method of joint packing (issue 11).

The models it solves (the relaxation's columns and rows, :mod:`packgap.models.packing.ti_grid`; the
bounds and pricing from given duals, :mod:`packgap.models.packing.ti_duals`) are built in
``models``; the levels, their LP and integer-program solves, the rounding, local search and
CP-SAT polish that drive them are here (DESIGN.md: ``models`` build only).
"""
