"""``make bench-check`` flags slowdowns relative to the calibration loop and weaker solvers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.check import CALIBRATION, main


def _run(unit: float, cases: dict[str, tuple[float, dict[str, Any]]]) -> dict[str, Any]:
    benches = [{"fullname": CALIBRATION, "stats": {"median": unit}, "extra_info": {}}]
    benches += [{"fullname": n, "stats": {"median": t}, "extra_info": info} for n, (t, info) in cases.items()]
    return {"benchmarks": benches, "machine_info": {"cpu": {"brand_raw": "test"}}}


def _check(tmp_path: Path, base: dict[str, Any], now: dict[str, Any]) -> int:
    (tmp_path / "base-run.json").write_text(json.dumps(base))
    (tmp_path / "now.json").write_text(json.dumps(now))
    assert main([str(tmp_path / "base-run.json"), str(tmp_path / "baseline.json"), "--write"]) == 0
    return main([str(tmp_path / "now.json"), str(tmp_path / "baseline.json")])


def test_a_slower_machine_is_not_a_regression(tmp_path: Path) -> None:
    base = _run(0.02, {"a": (0.1, {}), "b": (0.5, {"gap": 0.0, "status": "optimal"})})
    slower = _run(0.09, {"a": (0.2, {}), "b": (1.0, {"gap": 0.0, "status": "optimal"})})
    assert _check(tmp_path, base, slower) == 0


STEADY = {f"steady{i}": (0.05 * (i + 1), {}) for i in range(5)}


def test_a_slower_case_fails_with_a_table(tmp_path: Path, capsys) -> None:
    """2.5x over the 2x threshold fails; 1.8x, a slow spell measured on unchanged code, does not."""
    base = _run(0.02, {**STEADY, "a": (0.1, {}), "tiny": (0.0001, {})})
    spell = _run(0.02, {**STEADY, "a": (0.18, {}), "tiny": (0.001, {})})
    assert _check(tmp_path, base, spell) == 0
    now = _run(0.02, {**STEADY, "a": (0.25, {}), "tiny": (0.001, {})})
    assert _check(tmp_path, base, now) == 1
    out = capsys.readouterr().out
    assert "a" in out and "time x2.50" in out and "tiny" not in out.split("regression(s)")[1]


def test_a_weaker_model_fails_like_a_slower_one(tmp_path: Path, capsys) -> None:
    base = _run(0.02, {"m": (0.5, {"gap": 0.0, "status": "optimal"})})
    now = _run(0.02, {"m": (0.5, {"gap": 0.05, "status": "timeout"})})
    assert _check(tmp_path, base, now) == 1
    out = capsys.readouterr().out
    assert "certified gap" in out and "status" in out


def test_a_second_run_clears_a_one_off_stall_but_not_a_slowdown(tmp_path: Path) -> None:
    base = _run(0.02, {**STEADY, "a": (0.1, {}), "b": (0.1, {})})
    stalled = _run(0.02, {**STEADY, "a": (0.25, {}), "b": (0.25, {})})
    again = _run(0.02, {**STEADY, "a": (0.1, {}), "b": (0.25, {})})
    assert _check(tmp_path, base, stalled) == 1
    (tmp_path / "again.json").write_text(json.dumps(again))
    args = [str(tmp_path / "now.json"), str(tmp_path / "baseline.json"), "--again", str(tmp_path / "again.json")]
    assert main(args) == 1
    (tmp_path / "again.json").write_text(json.dumps(_run(0.02, {**STEADY, "a": (0.1, {}), "b": (0.11, {})})))
    assert main(args) == 0


def test_add_takes_only_the_new_cases_at_the_baselines_speed(tmp_path: Path) -> None:
    base = _run(0.02, {**STEADY, "a": (0.1, {})})
    # A machine twice as slow, one case slower still, and one case the baseline lacks.
    now = _run(0.04, {**{n: (2 * t, i) for n, (t, i) in STEADY.items()}, "a": (0.5, {}), "new": (0.8, {"gap": 0.1})})
    assert _check(tmp_path, base, base) == 0
    (tmp_path / "now.json").write_text(json.dumps(now))
    assert main([str(tmp_path / "now.json"), str(tmp_path / "baseline.json"), "--add"]) == 0
    cases = json.loads((tmp_path / "baseline.json").read_text())["cases"]
    assert cases["a"]["median_s"] == 0.1
    assert cases["new"] == {"median_s": 0.4, "gap": 0.1}
