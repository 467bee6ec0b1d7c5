"""Planning-phase heuristics of CUCKOO (section 3.3.3) and its baselines (section 4.5)."""

from packgap.heuristics.planning.list_scheduling import edf, fifo
from packgap.heuristics.planning.mchp import mchp, mchp_edge_costs

__all__ = ["edf", "fifo", "mchp", "mchp_edge_costs"]
