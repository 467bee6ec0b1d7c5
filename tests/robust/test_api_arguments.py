"""Issue 22.7: the Python API checks its arguments like the CLI, with packgap errors that name
the argument; the rules (seed, threads, time limit) are one function each in the hub."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import packgap
from packgap import jsonio
from packgap.analysis.registry import to_document
from packgap.errors import PackgapError
from packgap.fields import MAX_SEED, check_seed, check_threads, check_time_limit
from packgap.instances.planning.generator import generate


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("api") / "p.json"
    jsonio.write(to_document("planning", generate(4, seed=1)), path)
    return path


BAD_OPTIONS = [
    ({"time_limit": "60"}, "time_limit: expected a number of seconds, got str"),
    ({"time_limit": True}, "time_limit: expected a number of seconds, got bool"),
    ({"time_limit": 0}, "time_limit: must be a positive number"),
    ({"time_limit": float("nan")}, "time_limit: must be a positive number"),
    ({"threads": "2"}, "threads: expected a whole number, got str"),
    ({"threads": 0}, "threads: must lie in [1, 1024]"),
    ({"seed": 2**70}, "seed: must lie in [0, 2147483647] (CP-SAT and HiGHS take 32-bit seeds)"),
    ({"seed": -1}, "seed: must lie in [0, 2147483647]"),
    ({"seed": "abc"}, "seed: expected a whole number, got str"),
    ({"seed": True}, "seed: expected a whole number, got bool"),
]


@pytest.mark.parametrize(("options", "fragment"), BAD_OPTIONS, ids=[repr(o) for o, _ in BAD_OPTIONS])
def test_solve_and_compare_name_the_bad_argument(instance: Path, options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(PackgapError) as solved:
        packgap.solve(instance, "mchp", **options)
    with pytest.raises(PackgapError) as compared:
        packgap.compare(instance, "mchp", **options)
    assert fragment in str(solved.value)
    assert fragment in str(compared.value)


@pytest.mark.parametrize("methods", [["mchp", 5], 5, None, [["mchp"]]])
def test_compare_names_bad_methods(instance: Path, methods: Any) -> None:
    with pytest.raises(PackgapError, match=r"^methods: expected"):
        packgap.compare(instance, methods)


@pytest.mark.parametrize("method", [5, None, ["mchp"]])
def test_solve_names_a_bad_method(instance: Path, method: Any) -> None:
    with pytest.raises(PackgapError, match=r"^method: expected a method name"):
        packgap.solve(instance, method)


def test_solve_rejects_params_that_are_not_a_mapping(instance: Path) -> None:
    with pytest.raises(PackgapError, match=r"^params: expected a mapping"):
        packgap.solve(instance, "mchp", params=["tie_break"])  # type: ignore[arg-type]


def test_the_largest_seed_reaches_cp_sat(instance: Path) -> None:
    result = packgap.solve(instance, "exact-cpsat", seed=MAX_SEED, time_limit=30)
    assert result.objective is not None


def test_each_rule_returns_the_checked_value_and_names_its_field() -> None:
    assert check_seed(MAX_SEED) == MAX_SEED
    assert check_threads(4) == 4
    assert check_time_limit(None) is None
    assert check_time_limit(60) == 60.0
    with pytest.raises(PackgapError, match=r"^--seed: must lie in \[0, 2147483647\]"):
        check_seed(MAX_SEED + 1, "--seed")
    with pytest.raises(PackgapError, match=r"^spec\.toml: threads: expected a whole number"):
        check_threads(2.0, "spec.toml: threads")
