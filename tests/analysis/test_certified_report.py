"""Issue 33.1: one vocabulary, ``certified_gap`` for every method in the store, ``report`` and
``--export``, against hand-computed values; old stores stay readable."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pandas as pd
import pytest

from packgap import jsonio
from packgap.analysis import cliutil, registry
from packgap.analysis.report import gap_table, load_rows
from packgap.analysis.store import ResultStore
from packgap.result import SolveResult, Status


def _r(family: str, method: str, status: Status, objective: float, bound: float | None = None, scope: str = ""):
    return SolveResult(family, method, f"{family}-i", status, objective, bound, 0.5, "", "", 0, scope=scope)


#: A packing instance with a timed-out exact method (bound 0.04) and a sharing instance whose
#: exact-bb is optimal over non-preemptive schedules (100) and proves 80 for every policy.
CELLS = [
    ("da", _r("packing", "dab+mchp", Status.FEASIBLE, 0.05), {"jobs": 8}),
    ("da", _r("packing", "exact-ti", Status.TIMEOUT, 0.048, 0.04), {"jobs": 8}),
    ("db", _r("sharing", "fifo", Status.FEASIBLE, 120.0, scope="non-preemptive"), {"jobs": 4}),
    ("db", _r("sharing", "tiresias", Status.FEASIBLE, 95.0, scope="preemptive"), {"jobs": 4}),
    ("db", _r("sharing", "exact-bb", Status.OPTIMAL, 100.0, 80.0, "non-preemptive"), {"jobs": 4}),
]
#: (certified gap, bound source, gap against the bound for all classes, best-found gap), by hand.
EXPECTED = {
    "dab+mchp": (0.01 / 0.05, "exact-ti bound (all classes)", 0.01 / 0.05, 0.002 / 0.05),
    "exact-ti": (0.008 / 0.048, "exact-ti bound (all classes)", 0.008 / 0.048, 0.0),
    "fifo": (20 / 120, "exact-bb optimum (non-preemptive)", 40 / 120, 25 / 120),
    "tiresias": (15 / 95, "exact-bb bound (all classes)", 15 / 95, 0.0),
    "exact-bb": (0.0, "exact-bb optimum (non-preemptive)", 20 / 100, 5 / 100),
}


@pytest.fixture
def packgap(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The CLI in this process (a subprocess costs seconds): ``packgap(*args, cwd=...)`` gives
    the exit code and everything printed, tables included."""
    import io

    from typer.testing import CliRunner

    from packgap.analysis.cli import app

    def run(*args: str, cwd: Path) -> Any:
        printed = io.StringIO()
        monkeypatch.setattr(cliutil.out, "file", printed)
        monkeypatch.chdir(cwd)
        done = CliRunner().invoke(app, list(args))
        return SimpleNamespace(returncode=done.exit_code, stdout=done.stdout + printed.getvalue(), stderr=done.output)

    return run


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "r.duckdb"
    db = ResultStore(path)
    for digest, result, summary in CELLS:
        db.append(digest, result, summary)
    db.close()
    return path


def test_report_rows_carry_hand_computed_certified_gaps(store: Path) -> None:
    db = ResultStore(store)
    frame = load_rows(db).set_index("method")
    db.close()
    for method, (certified, source, every, best) in EXPECTED.items():
        row = frame.loc[method]
        assert row["certified_gap"] == pytest.approx(certified), method
        assert row["bound_source"] == source, method
        assert row["certified_gap_all_classes"] == pytest.approx(every), method
        assert row["best_found_gap"] == pytest.approx(best), method
    assert bool(frame.loc["exact-bb", "exact"]) and not bool(frame.loc["fifo", "exact"])


def test_report_table_json_and_export_say_certified_gap(store: Path, tmp_path: Path, packgap: Any) -> None:
    shown = packgap("report", str(store), "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    doc = json.loads(shown.stdout)
    assert doc["units"]["certified_gap_mean"] == "fraction" and doc["units"]["wall_s_mean"] == "s"
    rows = {r["method"]: r for r in doc["rows"]}
    for method, (certified, source, every, _) in EXPECTED.items():
        assert rows[method]["certified_gap_mean"] == pytest.approx(certified), method
        assert rows[method]["certified_gap_all_classes_mean"] == pytest.approx(every), method
        assert rows[method]["bound_source"] == source
    assert rows["fifo"]["kind"] == "heuristic" and rows["exact-bb"]["kind"] == "exact"
    table = packgap("report", str(store), cwd=tmp_path).stdout
    assert "mean (%)" in table and "mean (s)" in table and "certified gap" in table
    assert "16.67%" in table and "15.79%" in table and "20.00%" in table  # fifo, tiresias, dab+mchp
    assert "0.500" in table  # seconds to 3 significant digits
    assert packgap("report", str(store), "--export", "rows.csv", cwd=tmp_path).returncode == 0
    csv = pd.read_csv(tmp_path / "rows.csv").set_index("method")
    for method, (certified, source, _, _) in EXPECTED.items():
        assert csv.loc[method, "certified_gap"] == pytest.approx(certified)
        assert csv.loc[method, "bound_source"] == source


def test_a_store_written_before_issue_33_opens_and_reports(tmp_path: Path) -> None:
    """The results table of an older store lacks the added columns and its result documents
    say ``primal_gap`` / ``class_gap`` / ``bound_gap``: it opens, gains the columns, reports."""
    import duckdb

    from packgap.analysis import store as store_module

    path = tmp_path / "old.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(f"CREATE TABLE results ({store_module._COLUMNS})")
        doc = _r("sharing", "fifo", Status.FEASIBLE, 120.0, scope="non-preemptive").to_dict()
        for key in ("certified_gap", "bound_source", "certified_gap_all_classes", "best_found_gap"):
            del doc[key]
        doc.update(primal_gap=0.1, class_gap=0.2, bound_gap=0.3, gap=None)
        values = ["db", "i", "sharing", "fifo", 0, "{}", "feasible", 120.0, None, None, 0.5, "", "", "0", "", ""]
        values += ["2026-01-01", "", json.dumps(doc), json.dumps({"jobs": 4}), ""]
        con.execute(f"INSERT INTO results VALUES ({', '.join('?' * len(values))})", values)
    old = SolveResult.from_dict(doc)
    assert (old.best_found_gap, old.certified_gap, old.certified_gap_all_classes) == (0.1, 0.2, 0.3)
    db = ResultStore(path)
    db.append("db", CELLS[4][1], {"jobs": 4})
    frame = load_rows(db).set_index("method")
    db.close()
    assert frame.loc["fifo", "certified_gap"] == pytest.approx(20 / 120)
    assert pd.isna(frame.loc["fifo", "own_bound_gap"])
    assert gap_table(frame.reset_index(), "jobs")["n"].sum() == 2


def test_compare_and_report_on_packing_and_sharing_print_heuristic_certified_gaps(tmp_path: Path, packgap: Any) -> None:
    """A real sweep: each heuristic's certified gap, as compare prints it, is (objective - the
    exact method's optimum) / objective, and report gives the same."""
    for family, jobs in (("packing", 4), ("sharing", 6)):
        built = registry.generator(family).build({"jobs": jobs, "seed": 1})
        jsonio.write(registry.to_document(family, built), tmp_path / f"{family}.json")
    exact = {"packing": "exact-ti", "sharing": "exact-bb"}
    heuristics = {"packing": "dab+mchp,none+edf", "sharing": "fifo,sjf-bsbf"}
    found = {}
    for family in ("packing", "sharing"):
        done = packgap(
            "compare",
            f"{family}.json",
            "--methods",
            f"{heuristics[family]},{exact[family]}",
            "--time-limit",
            "20",
            "--store",
            "r.duckdb",
            "--json",
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        rows = {r["method"]: r for r in json.loads(done.stdout)}
        optimum = rows[exact[family]]
        assert optimum["status"] == "optimal"
        for method in heuristics[family].split(","):
            by_hand = (rows[method]["objective"] - optimum["objective"]) / rows[method]["objective"]
            assert rows[method]["certified_gap"] == pytest.approx(by_hand, abs=1e-12), method
            assert rows[method]["bound_source"].startswith(f"{exact[family]} ")
            found[method] = by_hand
    report = json.loads(packgap("report", "r.duckdb", "--json", cwd=tmp_path).stdout)["rows"]
    for r in report:
        if r["method"] in found:
            assert r["certified_gap_mean"] == pytest.approx(found[r["method"]], abs=1e-12)
    table = packgap("report", "r.duckdb", cwd=tmp_path).stdout
    for method, gap in found.items():
        assert f"{gap:.2%}" in table, method
