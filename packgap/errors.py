"""Errors that carry a message fit for a researcher, never a traceback.

Every error below :class:`PackgapError` is expected input trouble; the CLI prints its
message and exits with code 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class PackgapError(Exception):
    """Base of every expected error (bad input, missing solver, impossible instance)."""


@dataclass(frozen=True)
class Problem:
    """One problem in a data file: where (a JSON path such as ``groups[3].deadline``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class InstanceError(PackgapError):
    """An instance (or solution) file breaks its schema; lists every problem found."""

    def __init__(self, what: str, problems: Sequence[Problem]) -> None:
        self.what = what
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{what}: {len(self.problems)} problem(s)\n{lines}")


class ValidationError(PackgapError):
    """A solution breaks one or more rules of its family; lists every violated rule."""

    def __init__(self, family: str, violations: Sequence[str]) -> None:
        self.family = family
        self.violations = tuple(violations)
        lines = "\n".join(f"  - {v}" for v in self.violations)
        super().__init__(f"invalid {family} solution: {len(self.violations)} violation(s)\n{lines}")


class SolverUnavailableError(PackgapError):
    """A back-end (HiGHS, CP-SAT, rustworkx, ...) cannot be imported or started."""


class UnknownNameError(PackgapError):
    """A family, method or option name that does not exist; names the valid ones."""

    def __init__(self, kind: str, name: str, valid: Sequence[str]) -> None:
        super().__init__(f"unknown {kind} {name!r}; choose one of: {', '.join(sorted(valid))}")


class OptimalityViolationError(PackgapError):
    """A validated objective beats a proven optimum or bound: a bug, never a result."""


class TimeLimitReached(PackgapError):
    """The wall-clock time limit ran out before a method had an answer (status ``timeout``)."""
