"""The LP / MILP back-ends an exact method can name (``--solver``), and what is installed.

HiGHS is the default and always installed (``highspy`` is a dependency); SCIP comes with the
optional extra ``packgap[scip]`` (``pyscipopt``, SCIP bundled, Apache 2.0); Gurobi, CPLEX and
Xpress are commercial and come with their own Python packages and licences (each also installs
with a size-limited licence). Nothing here imports a solver until it is asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from packgap.errors import SolverUnavailableError, UnknownNameError


@dataclass(frozen=True)
class Backend:
    """One LP / MILP solver: its name, the module of packgap that drives it, the Python
    package that provides it and how to install it."""

    name: str
    module: str
    package: str
    fix: str


BACKENDS: dict[str, Backend] = {
    b.name: b
    for b in (
        Backend("highs", "packgap.solvers.highspy_lp", "highspy", "pip install highspy==1.12.0"),
        Backend("scip", "packgap.solvers.scip", "pyscipopt", "pip install 'packgap[scip]'"),
        Backend("gurobi", "packgap.solvers.gurobi", "gurobipy", "pip install gurobipy and a Gurobi licence"),
        Backend("cplex", "packgap.solvers.cplex", "cplex", "pip install cplex and a CPLEX licence"),
        Backend("xpress", "packgap.solvers.xpress", "xpress", "pip install xpress and an Xpress licence"),
    )
}
#: The default back-end of every exact method.
DEFAULT = "highs"
#: Every name ``--solver`` takes, the default first.
NAMES = tuple(BACKENDS)


def check_name(name: object, field: str = "solver") -> str:
    """``name`` when it names a back-end; otherwise an error naming the field and the choices."""
    if not isinstance(name, str) or name not in BACKENDS:
        raise UnknownNameError(field, str(name), list(NAMES))
    return name


def unavailable(name: str, why: str) -> SolverUnavailableError:
    """The one-line error of a back-end that cannot run here: the solver, why, and the fix."""
    return SolverUnavailableError(f"solver {name} is not available: {why} ({BACKENDS[name].fix})")


def imported(name: str, module: str) -> Any:
    """Back-end ``name``'s Python package ``module``, imported; :func:`unavailable` when it cannot be."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise unavailable(name, f"{module} cannot be imported ({exc})") from None


def is_installed(name: str) -> bool:
    return importlib.util.find_spec(BACKENDS[name].package) is not None


def require(name: str) -> None:
    """Raise :func:`unavailable` when ``name``'s package is not installed (a licence is checked
    when the solver starts)."""
    if not is_installed(check_name(name)):
        raise unavailable(name, f"the Python package {BACKENDS[name].package} is not installed")


def version(name: str) -> str:
    """The solver's own version (not its Python package's)."""
    require(name)
    module = importlib.import_module(BACKENDS[name].module)
    found: str = module.version()
    return found


def installed() -> list[tuple[str, str | None, str]]:
    """(name, version or None, note) for every back-end, in :data:`NAMES` order."""
    rows: list[tuple[str, str | None, str]] = []
    for name in NAMES:
        try:
            rows.append((name, version(name), "default" if name == DEFAULT else ""))
        except SolverUnavailableError as exc:
            rows.append((name, None, str(exc).partition(": ")[2]))
        except Exception as exc:  # a package that imports but cannot start (a broken licence set-up)
            rows.append((name, None, f"{type(exc).__name__}: {exc}"))
    return rows
