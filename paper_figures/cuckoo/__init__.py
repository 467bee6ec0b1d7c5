"""CUCKOO (SoCC '25, deadline-aware packing on heterogeneous GPUs) and its Muri baseline: one
module per numbered result.

:mod:`~packgap.paper_figures.cuckoo.table1` (Muri vs no packing on Muri's trace),
:mod:`~packgap.paper_figures.cuckoo.table4` (AM's interleaving slots),
:mod:`~packgap.paper_figures.cuckoo.table6` (MCHP's edge weights),
:mod:`~packgap.paper_figures.cuckoo.tables9_14` (the online comparison),
:mod:`~packgap.paper_figures.cuckoo.fig9_fig12` (further views of those runs) and
:mod:`~packgap.paper_figures.cuckoo.direction` (when Table 12's packing helps, and the
Muri-trace deadline misses of :mod:`~packgap.paper_figures.cuckoo.muri_misses`).
"""

from packgap.paper_figures.cuckoo import direction, fig9_fig12, table1, table4, table6, tables9_14

REPRODUCTIONS = (
    table1.REPRODUCTION,
    table4.REPRODUCTION,
    table6.REPRODUCTION,
    tables9_14.REPRODUCTION,
    fig9_fig12.FIG9,
    fig9_fig12.FIG12,
    direction.REPRODUCTION,
)
