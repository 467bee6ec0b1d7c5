"""The LP / MILP back-ends other than HiGHS that the tests run on: SCIP (the ``dev`` extra
installs it) and each commercial solver whose package imports; the rest are skipped with why."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from packgap.errors import SolverUnavailableError
from packgap.solvers import catalogue


def _param(name: str) -> object:
    if catalogue.is_installed(name):
        return pytest.param(name, id=name)
    why = f"{catalogue.BACKENDS[name].package} is not installed ({catalogue.BACKENDS[name].fix})"
    return pytest.param(name, id=name, marks=pytest.mark.skip(reason=why))


#: Every back-end but the default, as pytest parameters.
OTHER_SOLVERS = [_param(name) for name in catalogue.NAMES if name != catalogue.DEFAULT]
#: Every back-end, the default first.
ALL_SOLVERS = [pytest.param(catalogue.DEFAULT, id=catalogue.DEFAULT), *OTHER_SOLVERS]


#: Back-ends that ship with a size-limited licence: a model over it is skipped, with the message.
SIZE_LIMITED = ("gurobi", "cplex", "xpress")


@contextmanager
def within_licence(solver: str) -> Iterator[None]:
    """Run the block; a commercial solver's "the licence does not cover this model" skips the test."""
    try:
        yield
    except SolverUnavailableError as exc:
        if solver not in SIZE_LIMITED or "licence" not in str(exc):
            raise
        pytest.skip(str(exc))
