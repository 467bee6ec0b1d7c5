"""``packgap demo`` (issue 20, item 2): one table per family, every one with a proven bound."""

from __future__ import annotations

import re

import pytest

from packgap.analysis import registry
from packgap.analysis.demo import DemoTable, demo_instance, demo_kits
from packgap.analysis.kit import Demo
from packgap.analysis.run import check_against_optimum
from packgap.result import SolveResult, Status
from tests.clirun import packgap


def test_the_demo_shows_every_family_with_certified_gaps(tmp_path) -> None:
    done = packgap("demo", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for kit in registry.kits().values():
        assert kit.demo is not None, f"{kit.name} has no demo"
        assert kit.demo.title in done.stdout
        bound = re.search(rf"^{kit.name} instance \S+: best proven bound (\S+)$", done.stdout, re.MULTILINE)
        assert bound is not None and bound.group(1) != "-", f"{kit.name}: no proven bound"
        for method in kit.demo.methods:
            assert re.search(rf"│ {re.escape(method)} +│ (optimal|feasible) ", done.stdout), (kit.name, method)
    assert "packgap figures --all" in done.stdout
    assert "certified gap" in done.stdout


def test_an_unknown_family_exits_2(tmp_path) -> None:
    done = packgap("demo", "nosuch", cwd=tmp_path)
    assert done.returncode == 2
    assert "nosuch" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("kit", demo_kits(), ids=lambda k: k.name)
def test_each_demo_names_its_own_methods_and_an_exact_one(kit) -> None:
    demo = kit.demo
    assert demo is not None
    methods = [registry.method(kit.name, m) for m in demo.methods]
    assert any(m.exact for m in methods) and any(not m.exact for m in methods)
    assert type(demo_instance(demo)).__module__.startswith(f"packgap.{kit.name}.")


def _result(method: str, status: Status, objective: float, bound: float | None = None, scope: str = "") -> SolveResult:
    return SolveResult("f", method, "i", status, objective, bound, 0.0, "", "", 0, scope=scope)


def test_the_certified_gap_is_against_the_tightest_proven_bound() -> None:
    demo = Demo("t", "g", {}, ("h", "a", "b"))
    results = [
        _result("h", Status.FEASIBLE, 10.0),
        _result("a", Status.TIMEOUT, 9.0, 6.0),
        _result("b", Status.FEASIBLE, 9.5, 8.0),
    ]
    table = DemoTable("f", demo, "i", check_against_optimum(results))
    assert table.best_bound == 8.0
    assert table.certified_gap(table.results[0]) == pytest.approx(0.2)
    proven = DemoTable("f", demo, "i", check_against_optimum([*results, _result("c", Status.OPTIMAL, 8.5)]))
    assert proven.best_bound == 8.5
    assert proven.certified_gap(proven.results[0]) == pytest.approx(0.15)


def test_an_optimum_of_one_class_certifies_only_that_class() -> None:
    """Sharing: exact-bb's non-preemptive optimum certifies SJF-BSBF, not preemptive Tiresias,
    whose gap is against the bound valid for every policy."""
    demo = Demo("t", "g", {}, ("bsbf", "tiresias", "bb"))
    results = [
        _result("bsbf", Status.FEASIBLE, 10.0, scope="non-preemptive"),
        _result("tiresias", Status.FEASIBLE, 10.0, scope="preemptive"),
        _result("bb", Status.OPTIMAL, 9.0, 5.0, scope="non-preemptive"),
    ]
    table = DemoTable("f", demo, "i", check_against_optimum(results))
    assert table.best_bound == 5.0
    assert table.certified_gap(table.results[0]) == pytest.approx(0.1)
    assert table.certified_gap(table.results[1]) == pytest.approx(0.5)
