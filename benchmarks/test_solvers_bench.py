"""Every exact model that hands an LP / MILP to a solver, on SCIP (issue 34.4): seconds, status and
certified gap per (family, model, instance of :data:`benchmarks.solver_profiles.INSTANCES`).

``make bench`` only (``PACKGAP_BENCH=large``): ``make bench-check`` keeps HiGHS's baseline, and
these cases are not in it. HiGHS's own cases are the families' benchmark files;
``python -m benchmarks.solver_profiles`` draws the two solvers side by side.
"""

from __future__ import annotations

import pytest

from benchmarks.conftest import LARGE, PeakRss, exact_info
from benchmarks.solver_profiles import INSTANCES
from packgap.analysis import registry
from packgap.analysis.run import solve
from packgap.solvers import catalogue
from packgap.solvers.outcome import SolveOptions

OPTIONS = SolveOptions(time_limit=10.0, seed=0, solver="scip")
CASES = [
    pytest.param(family, method.name, options, id=f"{family}-{method.name}-{'-'.join(map(str, options.values()))}")
    for family, options in INSTANCES
    for method in registry.kit(family).methods
    if "scip" in method.solvers
]


@pytest.mark.skipif(not LARGE, reason="make bench only (PACKGAP_BENCH=large): bench-check keeps HiGHS's baseline")
@pytest.mark.skipif(
    not catalogue.is_installed("scip"), reason="pyscipopt is not installed (pip install 'packgap[scip]')"
)
@pytest.mark.parametrize(("family", "method", "options"), CASES)
def test_exact_models_on_scip(benchmark, family, method, options):
    instance = registry.generator(family).build(dict(options))
    chosen = registry.method(family, method)
    with PeakRss() as peak:
        result = benchmark.pedantic(
            solve, args=(registry.family(family), instance, chosen), kwargs={"options": OPTIONS}, rounds=1
        )
    benchmark.extra_info.update(exact_info(result, peak), solver=result.solver, solver_version=result.solver_version)
    assert result.objective is not None and result.solver.split("+")[0] in ("scip", "packgap", "packgap-bb")
