"""``--solver`` end to end (issue 34): the solver in the JSON result, ``packgap solvers``, the one-line
errors of an unknown solver and of a method that takes none, and a sweep spec's ``solvers``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import packgap as packgap_api
from packgap import jsonio
from packgap.analysis.registry import to_document
from packgap.analysis.spec import load_spec
from packgap.errors import PackgapError
from packgap.instances.planning.generator import generate
from packgap.solvers import catalogue
from tests.clirun import packgap

pytestmark = pytest.mark.skipif(not catalogue.is_installed("scip"), reason="pyscipopt is not installed")


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("solvers") / "p.json"
    jsonio.write(to_document("planning", generate(6, seed=1)), path)
    return path


def test_solve_on_scip_gives_the_highs_optimum_with_the_solver_recorded(instance: Path) -> None:
    highs = packgap_api.solve(instance, "exact-milp")
    done = packgap("solve", str(instance), "-m", "exact-milp", "--solver", "scip", "--json", cwd=instance.parent)
    assert done.returncode == 0, done.stderr
    scip = json.loads(done.stdout)
    assert scip["status"] == highs.status == "optimal" and scip["objective"] == pytest.approx(highs.objective)
    assert scip["solver"] == scip["params"]["solver"] == "scip" and highs.params["solver"] == "highs"
    assert scip["solver_version"] == catalogue.version("scip")


def test_a_method_without_a_solver_refuses_one_in_one_line(instance: Path) -> None:
    done = packgap("solve", str(instance), "-m", "mchp", "--solver", "scip", cwd=instance.parent)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "method 'mchp' hands no model to an LP / MILP solver" in done.stderr


def test_solvers_lists_every_backend_with_its_version(tmp_path: Path) -> None:
    done = packgap("solvers", "--json", cwd=tmp_path)
    listed = {row["solver"]: row["version"] for row in json.loads(done.stdout)}
    assert list(listed) == list(catalogue.NAMES) and listed["scip"] == catalogue.version("scip")


def test_a_spec_runs_each_solver_taking_method_once_per_solver(instance: Path, tmp_path: Path) -> None:
    spec = tmp_path / "s.toml"
    body = '[[generate]]\ngenerator = "planning"\nsizes = [4]\nmethods = ["mchp", "exact-milp"]\n'
    spec.write_text(f'solvers = ["highs", "scip"]\n{body}')
    cells = load_spec(spec).cells
    assert sorted((c.method, c.solver) for c in cells) == [
        ("exact-milp", "highs"),
        ("exact-milp", "scip"),
        ("mchp", None),
    ]
    spec.write_text(f'solvers = ["scip", "scip"]\n{body}')
    with pytest.raises(PackgapError, match="names a solver twice"):
        load_spec(spec)
