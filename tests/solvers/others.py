"""The LP / MILP back-ends other than HiGHS that the tests run on: SCIP (the ``dev`` extra
installs it) and each commercial solver whose package imports; the rest are skipped with why."""

from __future__ import annotations

import pytest

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
