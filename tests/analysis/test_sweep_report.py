"""Sweeps resume from the store; reports and figures are pure functions of stored rows."""

from __future__ import annotations

import builtins

import pytest

from packgap.analysis.registry import methods
from packgap.analysis.report import gap_table, load_rows, plot_gaps
from packgap.analysis.store import ResultStore
from packgap.analysis.sweep import Cell, run_sweep
from packgap.errors import PackgapError
from packgap.instances.planning.generator import generate
from packgap.planning import FAMILY
from packgap.solvers.outcome import SolveOptions

OPTIONS = SolveOptions(time_limit=20)


def cells(groups: list[int]) -> list[Cell]:
    docs = [FAMILY.instance_to_dict(generate(g, seed=1, gpu_types=(("A", 1, 1.0), ("B", 1, 1.5)))) for g in groups]
    return [Cell("planning", doc, m) for doc in docs for m in ("mchp", "fifo", "exact-cpsat")]


def test_sweep_resumes_and_report_groups_by_size(tmp_path):
    store = ResultStore(tmp_path / "s.duckdb")
    seen: list[bool] = []
    first = run_sweep(cells([3]), OPTIONS, store, workers=1, on_done=lambda r, reused: seen.append(reused))
    assert seen == [False, False, False]
    seen.clear()
    second = run_sweep(cells([3, 4]), OPTIONS, store, workers=2, on_done=lambda r, reused: seen.append(reused))
    assert sorted(seen) == [False, False, False, True, True, True]
    assert [r.objective for r in second[:3]] == [r.objective for r in first]
    frame = load_rows(store)
    assert len(frame) == 6 and set(frame["groups"]) == {3, 4}
    table = gap_table(frame, "groups")
    exact = table[table["method"] == "exact-cpsat"]
    assert (exact["certified_gap_mean"] == 0).all() and (exact["optimal_share"] == 1).all()
    assert (exact["kind"] == "exact").all() and (table[table["method"] != "exact-cpsat"]["kind"] == "heuristic").all()
    # exact-cpsat proves every optimum: certified and best-found gaps agree
    assert (table["certified_gap_mean"] - table["best_found_gap_mean"]).abs().max() < 1e-12
    assert frame["packgap_version"].notna().all() and frame["python"].notna().all()
    plot_gaps(frame, "groups", tmp_path / "gaps.png")
    assert (tmp_path / "gaps.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    store.close()


def test_every_planning_method_is_swept():
    assert {c.method for c in cells([2])} <= set(methods("planning"))


def test_dask_scheduler_without_dask_is_a_clear_error(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_distributed(name, *args, **kwargs):
        if name == "distributed":
            raise ImportError("no distributed here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    store = ResultStore(tmp_path / "s.duckdb")
    with pytest.raises(PackgapError, match=r"--scheduler needs Dask"):
        run_sweep(cells([2]), OPTIONS, store, scheduler="tcp://127.0.0.1:1")
    assert store.rows() == []
    store.close()
