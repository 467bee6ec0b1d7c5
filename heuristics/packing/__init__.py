"""Packing-phase heuristics of CUCKOO (section 3.3.2, 3.3.4) and Muri, and their pipelines."""
