"""Exact per-round placement models of the placement family (build only, never solve)."""
