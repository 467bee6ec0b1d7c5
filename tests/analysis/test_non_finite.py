"""A result is always written (issue 17, item 4): non-finite numbers become null with a reason,
a non-finite bound never certifies optimality, and ``solve --json`` keeps the work."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from packgap import jsonio
from packgap.analysis.cli import export_rows
from packgap.analysis.method import Method, MethodOutput
from packgap.analysis.report import load_rows
from packgap.analysis.run import solve
from packgap.analysis.store import ResultStore
from packgap.planning import FAMILY, GpuSequence, PlanningSolution
from packgap.result import SolveResult, Status
from packgap.solvers.outcome import SolveOptions

NON_FINITE = st.sampled_from([math.inf, -math.inf, math.nan])
NUMBER = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True))


def _result(**fields: object) -> SolveResult:
    base: dict[str, object] = {
        "family": "planning",
        "method": "m",
        "instance": "i",
        "status": Status.FEASIBLE,
        "objective": 1.0,
        "bound": None,
        "wall_s": 0.0,
        "solver": "",
        "solver_version": "",
        "seed": 0,
    }
    return SolveResult(**{**base, **fields})  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(objective=NUMBER, bound=NUMBER, metric=NUMBER)
@example(objective=0.0, bound=-1.797693134862316e299, metric=None)  # the derived gap overflowed
def test_every_result_writes_as_json_and_reads_back(objective, bound, metric) -> None:
    result = _result(objective=objective, bound=bound, metrics={"m": metric, "ok": 2.0})
    text = jsonio.dumps(result.to_dict())
    back = SolveResult.from_dict(json.loads(text))
    assert back == result
    for name, value in (("objective", objective), ("bound", bound), ("metric m", metric)):
        if value is not None and not math.isfinite(value):
            assert f"{name} {value}" in result.message and "written as null" in result.message


def test_a_nonfinite_field_is_null_with_its_reason() -> None:
    result = _result(objective=math.inf, bound=math.nan, metrics={"late": -math.inf}, message="solver said x")
    assert result.objective is None and result.bound is None and result.metrics == {"late": None}
    assert result.message == "solver said x; non-finite objective inf, bound nan, metric late -inf written as null"


def _plan() -> PlanningSolution:
    return PlanningSolution((GpuSequence("A", 0, ("1",)), GpuSequence("B", 0, ("2",))))


@pytest.mark.parametrize("bound", [math.inf, math.nan, -math.inf])
def test_an_optimum_claimed_on_a_nonfinite_bound_is_not_an_optimum(table5, bound: float) -> None:
    liar = Method("planning", "liar", "", lambda i, c: MethodOutput(_plan(), Status.OPTIMAL, bound), exact=True)
    result = solve(FAMILY, table5, liar, options=SolveOptions(time_limit=5))
    assert result.status == Status.FEASIBLE and result.bound is None
    assert f"non-finite bound {bound} dropped, so optimality is not claimed" in result.message


def test_nonfinite_rows_reach_the_store_and_every_export(tmp_path: Path) -> None:
    store = ResultStore(tmp_path / "r.duckdb")
    store.append("d", _result(bound=math.inf, metrics={"x": math.nan}))
    found = store.find("d", "m", 0, "{}")
    frame = load_rows(store)
    store.close()
    assert found is not None and found.bound is None and found.metrics == {"x": None}
    assert frame["bound"].isna().all()
    for name in ("r.csv", "r.parquet"):
        export_rows(frame, tmp_path / name)
    for back in (pd.read_csv(tmp_path / "r.csv"), duckdb.sql(f"SELECT * FROM '{tmp_path / 'r.parquet'}'").df()):
        assert back["bound"].isna().all() and back["objective"].tolist() == [1.0]


def test_solve_json_keeps_a_nonfinite_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from packgap.analysis import registry
    from packgap.analysis.cli import app

    path = tmp_path / "p.json"
    jsonio.write(FAMILY.instance_to_dict(registry.generator("planning").build({"groups": 2, "seed": 1})), path)
    fifo = registry.method("planning", "fifo")
    broken = Method(
        "planning", "fifo", "", lambda i, c: MethodOutput(fifo.run(i, c).solution, Status.OPTIMAL, math.inf)
    )
    monkeypatch.setattr(registry, "methods", lambda name: {"fifo": broken})
    done = CliRunner().invoke(app, ["solve", str(path), "--method", "fifo", "--json"])
    assert done.exit_code == 0, done.output
    written = json.loads(done.stdout)
    assert written["bound"] is None and written["status"] == "feasible"
    assert "non-finite bound inf dropped" in written["message"]


def test_solve_json_writes_a_method_error_in_full_then_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A method error keeps exit 2 (an earlier issue's rule), but the result is on stdout and in
    the -o file, complete, and the message says where it went."""
    from typer.testing import CliRunner

    from packgap.analysis import cliutil
    from packgap.analysis.cli import app

    messages = io.StringIO()
    monkeypatch.setattr(cliutil.err, "file", messages)
    path, out = tmp_path / "c.json", tmp_path / "r.json"
    from packgap.calibration import FAMILY as CALIBRATION
    from packgap.instances.calibration.jobsets import generate

    jsonio.write(CALIBRATION.instance_to_dict(generate(4, 3)), path)
    args = ["solve", str(path), "--method", "exact-grid", "--param", "max_points=3", "--json", "-o", str(out)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 2
    written = json.loads(done.stdout)
    assert written == json.loads(out.read_text())
    assert written["status"] == "error" and "more than 3 nodes" in written["message"]
    # The error console wraps long lines: compare with whitespace collapsed.
    assert f"(result written to stdout and {out})" in " ".join(messages.getvalue().split())
