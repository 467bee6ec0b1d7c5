"""SJF-BSBF (GPU sharing with gradient accumulation): Tables II-IV and Figs. 4-6, one module per
numbered result, each with a valid bound beside it, and packgap's search for where SJF-BSBF beats
SJF (:mod:`~packgap.paper_figures.sjf_bsbf.crossover`).

:mod:`~packgap.paper_figures.sjf_bsbf.table2`, :mod:`~packgap.paper_figures.sjf_bsbf.table3_table4`,
:mod:`~packgap.paper_figures.sjf_bsbf.fig6a`, :mod:`~packgap.paper_figures.sjf_bsbf.fig4_fig5`,
:mod:`~packgap.paper_figures.sjf_bsbf.fig6b` and Fig. 6a on Pollux's published workloads
(:mod:`~packgap.paper_figures.sjf_bsbf.pollux_load`); what they share is
:mod:`~packgap.paper_figures.sjf_bsbf.common`.
"""

from packgap.paper_figures.sjf_bsbf import crossover, fig4_fig5, fig6a, fig6b, pollux_load, table2, table3_table4

REPRODUCTIONS = (
    table2.REPRODUCTION,
    table3_table4.TABLE3_REPRODUCTION,
    table3_table4.TABLE4_REPRODUCTION,
    fig6a.REPRODUCTION,
    fig4_fig5.FIG4,
    fig4_fig5.FIG5,
    fig6b.REPRODUCTION,
    pollux_load.REPRODUCTION,
    crossover.REPRODUCTION,
)
