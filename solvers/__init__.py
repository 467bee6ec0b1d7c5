"""Thin back-ends over external solvers; they know nothing of scheduling.

Each back-end returns a :class:`~packgap.solvers.outcome.SolverOutcome`: a missing solver, a time
limit or infeasibility is a status (or a :class:`~packgap.errors.SolverUnavailableError`),
never a crash.
"""

from packgap.solvers.outcome import SolveOptions, SolverOutcome

__all__ = ["SolveOptions", "SolverOutcome"]
