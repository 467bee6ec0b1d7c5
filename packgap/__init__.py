"""packgap hub: domain types, validation and evaluation shared by every method.

The hub imports nothing from ``models``, ``solvers``, ``heuristics``, ``instances``
or ``analysis``: everything above depends on it, never the reverse.
"""

__version__ = "0.1.0"
