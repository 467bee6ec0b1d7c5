"""CUCKOO Table 1, Fig. 9, Fig. 12 and Table 13's shortest-first rows: rows, values and their directions,
on small inputs the tests build (no trace folder needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.analysis.agreement import agrees, unexplained
from packgap.analysis.kit import no_tick
from packgap.analysis.packing.online import window_mean
from packgap.paper_figures.cuckoo import table1 as t1
from packgap.paper_figures.cuckoo.causes import SHORTEST_FIRST
from packgap.paper_figures.cuckoo.fig9_fig12 import WEIGHTS, compare_fig9, compare_fig12
from packgap.paper_figures.cuckoo.tables9_14 import shortest_first_values

HEADER = (
    "job_id,num_gpu,submit_time,iterations,model_name,batch_size,duration,interval,iteration_time,"
    "resource_time_0,resource_time_1,resource_time_2,priority"
)


def test_window_mean_weighs_each_step_by_its_time_in_the_window() -> None:
    series = ((0.0, 2), (10.0, 4), (20.0, 0))
    assert window_mean(series, 0.0, 20.0) == pytest.approx(3.0)
    assert window_mean(series, 5.0, 15.0) == pytest.approx(3.0)
    assert window_mean(series, 15.0, 30.0) == pytest.approx(4 * 5 / 15)
    assert window_mean(series, 30.0, 30.0) == 0.0


def _series_row(system: str, level: int) -> dict:
    return {
        "seed": 1,
        "system": system,
        "jobs": 4,
        "last_arrival_s": 12000.0,
        "end_s": 16000.0,
        "queue": [[0.0, level], [15000.0, 0]],
        "overtime": [[0.0, 0], [2000.0, level], [16000.0, 0]],
    }


def test_fig9_compares_muri_above_cuckoo_only_where_jobs_arrive() -> None:
    values = compare_fig9([_series_row("CUCKOO", 2), _series_row("Muri", 5)])
    by = {v.quantity: v for v in values}
    muri = by["Muri time-mean queue length in [1000, 10000] s"]
    assert muri.ours == pytest.approx(5.0) and agrees(muri, values) == "yes"
    late = by["Muri time-mean queue length in [20000, 25000] s"]
    assert late.direction is None and "17" not in late.note and "12000 s" in late.note
    reversed_ = compare_fig9([_series_row("CUCKOO", 5), _series_row("Muri", 2)])
    assert not unexplained(reversed_)
    assert agrees(next(v for v in reversed_ if v.quantity.startswith("Muri time-mean overtime")), reversed_) == "no"


def _weight_rows(best: float) -> list[dict]:
    return [
        {
            "seed": s,
            "jobs": 4,
            "w": w,
            "mean_jct_s": 1000 + 100 * abs(w - best) + s,
            "deadline_satisfaction": 1 - abs(w - best),
            "mean_queue": 3.0,
        }
        for s in (1, 2, 3)
        for w in WEIGHTS
    ]


def test_fig12_finds_the_best_weight_and_explains_a_miss() -> None:
    values = compare_fig12(_weight_rows(0.6))
    assert {v.quantity: v.ours for v in values}["w of the best mean JCT"] == pytest.approx(0.6)
    assert all(agrees(v, values) == "yes" for v in values)
    missed = compare_fig12(_weight_rows(0.2))
    assert (
        agrees(missed[0], missed) == "no"
        and "0.2: 1002," in missed[0].cause
        and "best w per seed 0.2, 0.2, 0.2" in missed[0].cause
        and not unexplained(missed)
    )


def test_shortest_first_rows_stand_beside_edf_in_table_13() -> None:
    def run(system: str, jct: float, met: float) -> dict:
        return {
            "kind": "run",
            "seed": 1,
            "system": system,
            "mean_jct_s": jct,
            "p99_jct_s": 2 * jct,
            "deadline_satisfaction": met,
        }

    rows = [run("CUCKOO", 100.0, 0.8), run("EDF", 90.0, 0.9), run(SHORTEST_FIRST, 80.0, 0.85)]
    rows.append({"kind": "reference", "seed": 1, "reference": "lower bound", "mean_jct_s": 50.0})
    values = shortest_first_values(rows, "the planner cause")
    assert [v.quantity.removeprefix(SHORTEST_FIRST + " ") for v in values] == [
        "Norm. JCT",
        "deadline satisfaction",
        "Norm. tail JCT",
    ]
    edf = [v for v in values if v.direction is not None]
    assert [v.direction.than for v in edf] == ["EDF Norm. JCT", "EDF deadline satisfaction", "EDF Norm. tail JCT"]
    assert values[0].ours == pytest.approx(0.8) and "shortest-first" in values[0].note
    assert shortest_first_values(rows[:2], "") == []


def _trace(folder: Path) -> None:
    path = folder / t1.MURI_TRACE
    path.parent.mkdir(parents=True)
    jobs = [
        f"{i},{gpus},{1000 * 60 * i},{iters},{model},{bs},0,0,{it},{r0},{r1},{r2},0"
        for i, (gpus, iters, model, bs, it, r0, r1, r2) in enumerate(
            [(8, 3000, "vgg16", 16, 214, 82, 75, 66), (8, 2000, "resnet18", 128, 120, 60, 50, 20)] * 3
        )
    ]
    path.write_text("\n".join([HEADER, *jobs]) + "\n")


def test_table1_runs_every_strategy_on_the_trace_the_test_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from packgap.analysis.packing.online import muri_report
    from packgap.instances.packing import muri

    _trace(tmp_path)
    monkeypatch.setenv("PACKGAP_TRACES", str(tmp_path))
    rows = t1.table1(True, no_tick)
    strategies = [*t1.TABLE1, *t1.RELEASED]
    assert sorted((r["seed"], r["strategy"]) for r in rows) == sorted((s, n) for s in t1.SEEDS for n in strategies)
    assert all(r["jobs"] == 6 for r in rows)
    assert {r["pairs"] for r in rows if r["strategy"] == "Non-packing"} == {0.0}
    # Muri as released runs once per strategy; each seed's row is what a run on that seed gives.
    for strategy, params in t1.RELEASED.items():
        for seed in t1.SEEDS:
            instance = muri.build(tmp_path / t1.MURI_TRACE, seed, interleaving="muri")
            direct = muri_report(instance, "muri-s", params)["metrics"]
            row = next(r for r in rows if (r["seed"], r["strategy"]) == (seed, strategy))
            assert (row["mean_jct_s"], row["late_jobs"]) == (direct["mean_jct_s"], direct["late_jobs"])
    assert {r["preemptions"] for r in rows if r["strategy"] == "Non-packing (released)"} == {0.0}
    values = t1.compare_table1(rows)
    assert [v.quantity for v in values if v.direction is not None][:2] == [
        "Muri average JCT",
        "Muri deadline satisfaction",
    ]
    by = {v.quantity: v for v in values}
    assert by["Muri average JCT"].note.startswith("Muri as CUCKOO reads it (blossom+fifo")
    assert by["Muri (released) average JCT"].note.startswith("Muri as released (muri-s")
    assert by["Muri (released) average JCT"].direction.than == "Non-packing (released) average JCT"
    ratio = by["Muri (released) / Non-packing (released) average JCT"]
    assert ratio.paper == by["Muri / Non-packing average JCT"].paper and ratio.ours is not None
    assert "time-mean queue" in by["Muri (released) deadline satisfaction"].cause
    assert t1.draw_table1(rows, tmp_path / "out")


def test_table1_says_when_the_trace_is_absent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PACKGAP_TRACES", str(tmp_path))
    rows = t1.table1(True, no_tick)
    assert rows == [{"traces": False}]
    assert t1.compare_table1(rows)[0].note == "traces not available" and t1.draw_table1(rows, tmp_path) == []
