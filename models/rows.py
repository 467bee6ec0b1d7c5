"""Pyomo constraint families built row by row in packgap's own loop (issue 31).

A Pyomo ``Constraint(index, rule=...)`` builds its rows inside Pyomo, where no deadline check
can run without raising through Pyomo's code (which logs "Rule failed" for it). Here the
family is declared empty and each row assigned in a loop that checks the deadline in force
every :data:`packgap.deadline.EVERY` rows (:func:`packgap.deadline.checked`), so a build
under a time limit stops between two rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from packgap.deadline import checked


def add_rows(model: Any, name: str, index: Iterable[Any], rule: Callable[..., Any]) -> None:
    """``model.<name>``: the row ``rule(*key)`` (``rule(key)`` for a key that is no tuple) for
    every key of ``index``, a list or a Pyomo set."""
    import pyomo.environ as pyo

    keys = index if isinstance(index, pyo.Set) else list(index)
    setattr(model, name, pyo.Constraint(keys))
    rows = getattr(model, name)
    for key in checked(keys):
        rows[key] = rule(*key) if isinstance(key, tuple) else rule(key)
