"""Planning-phase heuristics of CUCKOO (section 3.3.3) and its baselines (section 4.5)."""

from heuristics.planning.list_scheduling import edf, fifo
from heuristics.planning.mchp import mchp, mchp_edge_costs

__all__ = ["edf", "fifo", "mchp", "mchp_edge_costs"]
