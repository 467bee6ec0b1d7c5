"""GIMBAL (flexible job packing with calibration): one module per numbered result, each with the
exact calibration optimum beside GIMBAL.

:mod:`~packgap.paper_figures.gimbal.fig13_fig15` (search time against granularity, early exit),
:mod:`~packgap.paper_figures.gimbal.fig12` (the ablation), :mod:`~packgap.paper_figures.gimbal.fig8`
(end to end), :mod:`~packgap.paper_figures.gimbal.table2` (the workloads) and
:mod:`~packgap.paper_figures.gimbal.fig9_fig11` (three views of Fig. 8's runs); their end-to-end
runs are :mod:`~packgap.paper_figures.gimbal.endtoend`.
"""

from packgap.paper_figures.gimbal import fig8, fig9_fig11, fig12, fig13_fig15, table2

REPRODUCTIONS = (
    fig13_fig15.FIG13,
    fig13_fig15.FIG15,
    fig12.REPRODUCTION,
    fig8.REPRODUCTION,
    table2.REPRODUCTION,
    *fig9_fig11.REPRODUCTIONS,
)
