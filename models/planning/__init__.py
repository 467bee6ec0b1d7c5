"""Exact formulations of the planning family; they build models and never solve them."""
