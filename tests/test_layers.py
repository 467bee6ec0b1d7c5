"""The import direction of DESIGN.md "Layout": dependencies only point down the stack.

    analysis (generic core, registry) -> analysis/F (kits)
    analysis/F -> models, heuristics, instances -> solvers -> packgap (hub)

Every import of every module counts, nested ones included, except the one lazy import the
hub makes at call time (``packgap.solve`` reaching ``analysis.api``).
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
}
HUB_LAZY = {("packgap/__init__.py", "analysis.api")}
#: The generic core's contracts, which the family kits build on.
CORE_CONTRACTS = {"analysis.kit", "analysis.method", "analysis.run", "analysis.store", "analysis.registry"}


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            if node.module in ALLOWED:  # ``from analysis import registry`` imports a module
                names += [f"{node.module}.{a.name}" for a in node.names]
    return names


def _modules() -> list[Path]:
    return sorted(p for package in ALLOWED for p in (ROOT / package).rglob("*.py"))


FAMILIES = sorted(p.name for p in (ROOT / "analysis").iterdir() if (p / "__init__.py").is_file())


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down_the_stack(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    package = rel.split("/")[0]
    for name in _imports(path):
        top = name.split(".")[0]
        if top not in ALLOWED or top == package or (rel, name) in HUB_LAZY:
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
