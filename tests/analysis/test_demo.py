"""``packgap demo`` (issue 20, item 2): one table per family, every one with a proven bound."""

from __future__ import annotations

import re

import pytest

from packgap.analysis import registry
from packgap.analysis.demo import demo_instance, demo_kits
from packgap.analysis.run import check_against_optimum
from packgap.result import SolveResult, Status
from tests.clirun import packgap


def test_the_demo_shows_every_family_with_certified_gaps(tmp_path) -> None:
    done = packgap("demo", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for kit in registry.kits().values():
        assert kit.demo is not None, f"{kit.name} has no demo"
        assert kit.demo.title in done.stdout
        assert re.search(rf"^{kit.name} instance \S+$", done.stdout, re.MULTILINE), kit.name
        assert f"({kit.objective_unit})" in done.stdout, kit.name
        assert kit.demo.note in done.stdout, kit.name  # under its table: which bound is which
        for method in kit.demo.methods:
            # every row certified: a gap in percent and the bound it is measured against
            row = rf"│ {re.escape(method)} +│ (optimal|feasible) .*│ \d+\.\d\d% +│ \S+ (optimum|bound) \("
            assert re.search(row, done.stdout), (kit.name, method)
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
    results = [
        _result("h", Status.FEASIBLE, 10.0),
        _result("a", Status.TIMEOUT, 9.0, 6.0),
        _result("b", Status.FEASIBLE, 9.5, 8.0),
    ]
    h = check_against_optimum(results)[0]
    assert h.certified_gap == pytest.approx(0.2) and h.bound_source == "b bound (all classes)"
    assert h.best_found_gap == pytest.approx(0.1)
    proven = check_against_optimum([*results, _result("c", Status.OPTIMAL, 8.5)])[0]
    assert proven.certified_gap == pytest.approx(0.15) and proven.bound_source == "c optimum (all classes)"


def test_an_optimum_of_one_class_certifies_only_that_class() -> None:
    """Sharing: exact-bb's non-preemptive optimum certifies SJF-BSBF, not preemptive Tiresias,
    whose gap is against the bound valid for every policy."""
    results = [
        _result("bsbf", Status.FEASIBLE, 10.0, scope="non-preemptive"),
        _result("tiresias", Status.FEASIBLE, 10.0, scope="preemptive"),
        _result("bb", Status.OPTIMAL, 9.0, 5.0, scope="non-preemptive"),
    ]
    bsbf, tiresias, bb = check_against_optimum(results)
    assert bsbf.certified_gap == pytest.approx(0.1) and bsbf.certified_gap_all_classes == pytest.approx(0.5)
    assert tiresias.certified_gap == tiresias.certified_gap_all_classes == pytest.approx(0.5)
    assert bb.certified_gap == 0 and bb.bound_source == "bb optimum (non-preemptive)"
