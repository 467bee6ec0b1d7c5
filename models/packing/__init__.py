"""Exact models of the packing family: joint pairing, GPU type, start and order."""
