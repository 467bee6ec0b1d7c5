"""The import direction of DESIGN.md "Layout": dependencies only point down the stack.

    paper_figures (the reproductions) -> analysis (generic core, registry) -> analysis/F (kits)
    analysis/F -> models, heuristics, instances -> solvers -> packgap (hub)

Every import of every module counts, nested ones included, except the one lazy import the
hub makes at call time (``packgap.solve`` reaching ``packgap.analysis.api``). ``models`` build only:
no module there reaches a name of ``solvers`` that runs a solver (the algorithms that solve
live in the family's kit folder, ``analysis/F``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: What each top-level package may import from the project (itself always).
ALLOWED = {
    "packgap": set(),
    "solvers": {"packgap"},
    "models": {"packgap", "solvers"},
    "heuristics": {"packgap", "solvers", "models"},
    "instances": {"packgap", "solvers", "heuristics", "models"},
    "analysis": {"packgap", "solvers", "models", "heuristics", "instances"},
    "paper_figures": {"packgap", "solvers", "models", "heuristics", "instances", "analysis"},
}
HUB_LAZY = {("packgap/__init__.py", "analysis.api")}
#: The generic core's contracts, which the family kits build on.
CORE_CONTRACTS = {
    "analysis.kit",
    "analysis.method",
    "analysis.run",
    "analysis.store",
    "analysis.registry",
    "analysis.plotting",
    "analysis.plugins",
}
#: What in ``solvers`` runs a solver, or sets up or reads one run: none of it in ``models``.
#: Model constructors and helpers (``new_model``, ``integer_costs``, ``ArrayMip``, ``Columns``)
#: are allowed.
SOLVING = {
    "solve_cpsat",
    "solve_pyomo",
    "solve_highs",
    "solve_mip",
    "min_cost_flow",
    "assignment",
    "capacitated_assignment",
    "max_weight_matching",
    "HighsModel",
    "open_model",
    "solve_arrays",
    "SolveOptions",
    "SolverOutcome",
    "MipSolution",
    "LpSolution",
    "status_from_gap",
}


def _layer_name(name: str) -> str | None:
    """``packgap.models.x`` -> ``models.x`` (the layer first), ``packgap.x`` -> ``packgap.x``;
    None for anything outside the project."""
    parts = name.split(".")
    if parts[0] != "packgap":
        return None
    if len(parts) > 1 and parts[1] in ALLOWED:
        return ".".join(parts[1:])
    return name


def _imports(path: Path) -> list[str]:
    """The project modules a file imports, named by layer (see :func:`_layer_name`)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            # ``from packgap.analysis import registry`` and ``from packgap import models`` import modules
            names += [f"{node.module}.{a.name}" for a in node.names]
    return [layer for name in names if (layer := _layer_name(name)) is not None]


def _modules() -> list[Path]:
    """Every module once, under its folder at the top of the repository (``packgap/models`` and
    the other layer links inside the hub are the same files)."""
    hub_links = {ROOT / "packgap" / layer for layer in ALLOWED if layer != "packgap"}
    return sorted(
        p
        for package in ALLOWED
        for p in (ROOT / package).rglob("*.py")
        if not any(link in p.parents for link in hub_links)
    )


FAMILIES = sorted(p.name for p in (ROOT / "analysis").iterdir() if (p / "__init__.py").is_file())


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down_the_stack(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    package = rel.split("/")[0]
    for name in _imports(path):
        top = name.split(".")[0]
        if top not in ALLOWED or top == package or (rel, ".".join(name.split(".")[:2])) in HUB_LAZY:
            continue
        assert top in ALLOWED[package], f"{rel} imports {name}: {package} may not depend on {top}"


@pytest.mark.parametrize("path", sorted((ROOT / "analysis").glob("*.py")), ids=lambda p: p.name)
def test_the_generic_core_names_no_family(path: Path) -> None:
    for name in _imports(path):
        parts = name.split(".")
        assert not (parts[0] == "analysis" and len(parts) > 1 and parts[1] in FAMILIES), f"{path.name} imports {name}"


@pytest.mark.parametrize("family", FAMILIES)
def test_kits_use_only_the_core_contracts(family: str) -> None:
    for path in (ROOT / "analysis" / family).rglob("*.py"):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "analysis" and len(parts) > 1 and parts[1] not in FAMILIES:
                assert ".".join(parts[:2]) in CORE_CONTRACTS, f"{path.relative_to(ROOT)} imports the generic {name}"


def _solving_uses(path: Path) -> list[str]:
    """Names of :data:`SOLVING` a module imports from ``packgap.solvers`` or reaches as
    attributes of a solvers module it imports (``import packgap.solvers.x`` binds ``packgap``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if (_layer_name(a.name) or "").split(".")[0] == "solvers":
                    modules.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if (_layer_name(node.module) or "").split(".")[0] == "solvers":
                found += [a.name for a in node.names if a.name in SOLVING]
                modules |= {a.asname or a.name for a in node.names if a.name not in SOLVING}
            elif node.module == "packgap":
                modules |= {a.asname or a.name for a in node.names if a.name == "solvers"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SOLVING:
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in modules:
                found.append(node.attr)
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "models").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_models_build_only(path: Path) -> None:
    uses = _solving_uses(path)
    assert not uses, f"{path.relative_to(ROOT)} solves ({', '.join(uses)}): models build only, move it to analysis/F"


def test_the_solving_names_exist() -> None:
    defined = {
        node.name
        for path in (ROOT / "solvers").glob("*.py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef | ast.ClassDef)
    }
    assert not SOLVING - defined, f"not in solvers: {sorted(SOLVING - defined)}"


def test_the_models_rule_sees_every_way_in(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    for source in (
        "from packgap.solvers.cpsat import solve_cpsat",
        "from packgap.solvers import flow\nflow.min_cost_flow()",
        "from packgap import solvers\nsolvers.highs.solve_pyomo()",
        "import packgap.solvers.highs\npackgap.solvers.highs.solve_pyomo()",
        "import packgap.solvers.matrix as m\nm.solve_mip()",
        "def f():\n    from packgap.solvers.outcome import SolveOptions",
    ):
        module.write_text(source)
        assert _solving_uses(module), source
    module.write_text(
        "from packgap.solvers.cpsat import new_model\nfrom packgap.solvers import flow\nflow.integer_costs()"
    )
    assert not _solving_uses(module)
