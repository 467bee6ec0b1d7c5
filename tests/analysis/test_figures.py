"""``packgap figures``: rows computed once and stored, keyed by parameters and source digest,
figures redrawn from them, and REPRODUCTION.md listing every paper-vs-ours value with its
computed agreement (issues 13, 19)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from packgap.analysis import figures
from packgap.analysis.figures import reproduce, reproductions
from packgap.analysis.kit import Direction, PaperValue, Reproduction, no_tick
from packgap.analysis.reproduction_md import RUN_MARKER, record_part, report_markdown
from packgap.analysis.store import ResultStore
from tests.clirun import packgap

CALLS: list[bool] = []


def _compute(quick: bool, tick: Any) -> list[dict[str, Any]]:
    CALLS.append(quick)
    return [{"x": 1.0, "y": 2.5}]


def _draw(rows: Sequence[Mapping[str, Any]], out: Path) -> list[Path]:
    path = out / "fake.png"
    path.write_bytes(b"\x89PNG" + str(rows[0]["y"]).encode())
    return [path]


def _compare(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    return [
        PaperValue("Table 9", "mean JCT", 2.0, rows[0]["y"], "s", "ours is larger", Direction("<", 2.2)),
        PaperValue("Table 9", "tail JCT", 1.5, rows[0]["x"], "s", "", Direction("<", "mean JCT")),
        PaperValue("Table 9", "seconds per round", 1.0, rows[0]["y"], "s", measured=True),
    ]


def _size(quick: bool) -> dict[str, Any]:
    return {"jobs": 10 if quick else 100, "seeds": 1}


FAKE = Reproduction("fake-table9", "CUCKOO", "Table 9", "a fake", _compute, _draw, _compare, _size)


def test_rows_are_computed_once_and_figures_redrawn(tmp_path: Path) -> None:
    CALLS.clear()
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        first = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        again = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        full = reproduce([FAKE], quick=False, out=tmp_path, store=store, recompute=False, tick=no_tick)
        forced = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=True, tick=no_tick)
    finally:
        store.close()
    assert CALLS == [True, False, True]
    assert [d.reused for d in (*first, *again, *full, *forced)] == [False, True, False, False]
    assert again[0].rows == first[0].rows and (tmp_path / "fake.png").read_bytes() == b"\x89PNG2.5"
    text = report_markdown(first, quick=True)
    assert (
        "| mean JCT s | jobs 10, seeds 1 | 2 | 2.5 | 1.250 | < 2.2 | no | yes (±25 %) | not run | ours is larger |"
        in text
    )
    tail = "| tail JCT s | jobs 10, seeds 1 | 1.5 | 1 | 0.667 | < mean JCT | yes | no (±25 %) | not run |"
    assert f"{tail} off in magnitude: no measured cause yet |" in text
    assert "`fake.png`" in text
    record, run = text.split(RUN_MARKER)
    assert "seconds per round" not in record and "seconds per round" in run
    assert "computed by this run" in run and "reused from the store" in report_markdown(again, quick=True)


def test_a_code_change_invalidates_stored_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows are keyed by the source digest: the same code reuses them, other code recomputes."""
    CALLS.clear()
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        monkeypatch.setattr(figures, "source_digest", lambda: "another version of the code")
        changed = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        bigger = replace(FAKE, size=lambda quick: {"jobs": 11, "seeds": 1})
        resized = reproduce([bigger], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
    finally:
        store.close()
    assert CALLS == [True, True, True]
    assert not changed[0].reused and not resized[0].reused


def test_the_record_is_the_same_bytes_whether_rows_are_computed_or_reused(tmp_path: Path) -> None:
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        first = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        again = reproduce([FAKE], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
    finally:
        store.close()
    one, two = report_markdown(first, quick=True), report_markdown(again, quick=True)
    assert one != two and record_part(one) == record_part(two)


def test_every_reproduction_is_named_once_with_a_paper_item() -> None:
    found = reproductions()
    assert found, "no kit registers a reproduction"
    for name, r in found.items():
        assert name == r.name and r.paper and r.item and r.title


def _by_size(quick: bool, tick: Any) -> list[dict[str, Any]]:
    return [{"x": 1.0, "y": 2.0 if quick else 2.4}]


def test_a_quick_report_says_where_the_paper_sized_run_goes_the_other_way(tmp_path: Path) -> None:
    both = replace(FAKE, compute=_by_size)
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        before = reproduce([both], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        reproduce([both], quick=False, out=tmp_path, store=store, recompute=False, tick=no_tick)
        after = reproduce([both], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
    finally:
        store.close()
    assert "| 2 | 2 | 1.000 | < 2.2 | yes | yes (±25 %) | not run |" in report_markdown(before, quick=True)
    text = report_markdown(after, quick=True)
    assert "| 2 | 2 | 1.000 | < 2.2 | yes | yes (±25 %) | no |" in text
    assert "1 numbers run in a different direction at the two sizes:\n* fake-table9: mean JCT" in text


def test_named_reproductions_keep_the_others_in_reproduction_md(tmp_path: Path) -> None:
    """`figures NAME` into the folder of an earlier run adds to its REPRODUCTION.md (it used to
    replace it with NAME's rows alone)."""
    for name in ("cuckoo-table6", "cuckoo-table4"):
        done = packgap("figures", name, "--quick", "--out", "figs", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    record = (tmp_path / "figs" / "REPRODUCTION.md").read_text().split(RUN_MARKER)[0]
    assert "| CUCKOO | Table 6 |" in record and "| CUCKOO | Table 4 |" in record
    assert record.index("| CUCKOO | Table 4 |") < record.index("| CUCKOO | Table 6 |")  # in the registry's order


#: A folder where each worker running :func:`_in_a_worker` leaves a file as it starts.
STARTED = "PACKGAP_TEST_STARTED"


def _in_a_worker(quick: bool, tick: Any) -> list[dict[str, Any]]:
    if STARTED in os.environ:
        (Path(os.environ[STARTED]) / str(os.getpid())).touch()
    return [{"x": 3.0, "y": 1.5, "pid": os.getpid()}]


def _failing(quick: bool, tick: Any) -> list[dict[str, Any]]:
    """Fail once the other reproduction runs (with :data:`STARTED` set): failing sooner cancels
    it before it starts, as a queued one is, and under load that once came first (make test-repeat)."""
    given_up = time.monotonic() + 60
    while STARTED in os.environ and not any(Path(os.environ[STARTED]).iterdir()) and time.monotonic() < given_up:
        time.sleep(0.01)
    raise ValueError("a reproduction's own error")


def test_workers_compute_in_other_processes_and_store_every_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`figures --workers 2`: each reproduction computed in a process of its own, every row set
    stored once, the record the same as one process writes; an error in one reproduction is
    raised after the others running beside it have finished and been stored."""
    first = replace(FAKE, name="fake-a", compute=_in_a_worker)
    second = replace(FAKE, name="fake-b", compute=_in_a_worker)
    broken = replace(FAKE, name="fake-c", compute=_failing)
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        done = reproduce(
            [first, second], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick, workers=2
        )
        again = reproduce([first, second], quick=True, out=tmp_path, store=store, recompute=False, tick=no_tick)
        (tmp_path / "started").mkdir()
        monkeypatch.setenv(STARTED, str(tmp_path / "started"))  # the workers start after this
        with pytest.raises(ValueError, match="own error"):
            reproduce([broken, first], quick=False, out=tmp_path, store=store, recompute=False, tick=no_tick, workers=2)
        kept = reproduce([first], quick=False, out=tmp_path, store=store, recompute=False, tick=no_tick)
    finally:
        store.close()
    pids = {d.rows[0]["pid"] for d in done}
    assert os.getpid() not in pids
    assert [d.reused for d in (*done, *again, *kept)] == [False, False, True, True, True]
    assert [d.rows for d in again] == [d.rows for d in done]
    assert record_part(report_markdown(done, quick=True)) == record_part(report_markdown(again, quick=True))


def test_workers_start_the_longest_reproduction_first(tmp_path: Path) -> None:
    """The order of a parallel run: by the last stored seconds of the same parameters (any
    code), never computed first."""
    short, long_, new = (replace(FAKE, name=n) for n in ("fake-short", "fake-long", "fake-new"))
    store = ResultStore(tmp_path / "r.duckdb")
    try:
        params = FAKE.params(True)
        store.append_reproduction("fake-short", params, "old code", [], 1.0)
        store.append_reproduction("fake-long", params, "old code", [], 9.0)
        store.append_reproduction("fake-long", params, "newer code", [], 4.0)
        last = {i.name: store.last_seconds(i.name, params) for i in (short, long_, new)}
    finally:
        store.close()
    assert last == {"fake-short": 1.0, "fake-long": 4.0, "fake-new": None}
    assert [i.name for i in figures.longest_first([short, long_, new], last)] == ["fake-new", "fake-long", "fake-short"]
