"""PAL's Synergy section (Figs. 14-17, 19) on a tiny cluster and profiles written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap.analysis.figures import reproductions
from packgap.analysis.kit import no_tick
from packgap.paper_figures.pal.synergy import Sizes, saturation_s, synergy_rows, waiting_load

REP = reproductions()["pal-synergy"]
TINY = Sizes(60, (20, 50), (8.0, 10.0), (8.0,), ("packed-sticky", "pm-first", "pal"), ("packed-sticky", "pal"), 16)


@pytest.fixture
def profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Longhorn-like profiles of 40 runs per class: class A varies most (a slow tail)."""
    folder = tmp_path / "traces" / "pal" / "variability"
    folder.mkdir(parents=True)
    spread = {"resnet": 0.2, "bert": 0.05, "pagerank": 0.01}
    for name, width in spread.items():
        perf = "".join(
            f"{1 + width * ((7 * i) % 40) / 40 + (2.0 if name == 'resnet' and i == 3 else 0)}\n" for i in range(40)
        )
        (folder / f"{name}-longhorn-agg.csv").write_text("perf\n" + perf)
    mapping = {"classA": "resnet", "classB": "bert", "classC": "bert", "classD": "pagerank"}
    (folder / "profiles.json").write_text(json.dumps({c: f"sim/{f}-longhorn-agg.csv" for c, f in mapping.items()}))
    monkeypatch.setenv("PACKGAP_TRACES", str(tmp_path / "traces"))
    return folder


def test_rows_cover_the_plan_and_keep_series_where_drawn(profiles: Path) -> None:
    rows = synergy_rows(TINY, no_tick)
    plan = {(r["scheduler"], r["jobs_per_hour"], r["policy"]) for r in rows}
    assert len(rows) == len(plan) == 2 * 3 + 2 * 2
    assert all(r["gpus"] == 16 and r["jobs"] == 30 and r["mean_jct_s"] >= r["mean_wait_s"] >= 0 for r in rows)
    series = {(r["scheduler"], r["jobs_per_hour"], r["policy"]) for r in rows if "gpus_in_use" in r}
    assert series == {("fifo", x, p) for x in (8.0, 10.0) for p in ("packed-sticky", "pal")}
    waits = [r for r in rows if "wait_s" in r]
    assert {r["policy"] for r in waits} == {"packed-sticky", "pal"} and len(waits) == 2 * 2 + 2 * 2
    assert all(r["first_job"] == 20 and len(r["wait_s"]) == 30 for r in waits)
    for r in (r for r in rows if "gpus_in_use" in r):
        assert max(r["gpus_in_use"]) <= 16 and len(r["gpus_in_use"]) == -(-r["makespan_s"] // 3600)


def test_same_rows_twice(profiles: Path) -> None:
    small = Sizes(30, (10, 25), (8.0,), (8.0,), ("packed-sticky", "pal"), ("pal",), 16)
    assert json.dumps(synergy_rows(small, no_tick)) == json.dumps(synergy_rows(small, no_tick))


def test_compare_and_draw(profiles: Path, tmp_path: Path) -> None:
    rows = synergy_rows(TINY, no_tick)
    values = {v.quantity: v for v in REP.compare(rows)}
    assert "PAL avg JCT gain over Tiresias, FIFO, 12 jobs/h" not in values  # only the loads run
    assert values["PAL largest avg JCT gain over Tiresias, LAS"].paper == 15.0
    fifo = values["PAL avg JCT gain over Tiresias, FIFO, 8 jobs/h"].ours
    pal, base = (
        next(r["mean_jct_s"] for r in rows if (r["scheduler"], r["jobs_per_hour"], r["policy"]) == ("fifo", 8.0, p))
        for p in ("pal", "packed-sticky")
    )
    assert fifo == pytest.approx(100 * (1 - pal / base))
    assert values["PAL mean wait, LAS"].ours is not None
    paths = REP.draw(rows, tmp_path)
    assert sorted(p.name for p in paths if p.suffix == ".png") == [
        "pal_fig14_16_17.png",
        "pal_fig15.png",
        "pal_fig19.png",
    ]


def test_saturation_starts_the_longest_full_stretch() -> None:
    hour = 12 * 300.0
    assert saturation_s([3.0, 16.0, 15.0, 16.0, 16.0, 15.8, 2.0], 16) == 3 * hour
    assert saturation_s([16.0, 16.0, 3.0], 16) == 0.0
    assert saturation_s([3.0, 15.0], 16) is None


def test_waits_are_shown_at_the_first_load_where_jobs_queue_an_hour() -> None:
    def row(load: float, wait_h: float) -> dict[str, object]:
        return {"scheduler": "fifo", "jobs_per_hour": load, "policy": "packed-sticky", "mean_wait_s": 3600 * wait_h}

    las = [{"scheduler": "las", "jobs_per_hour": x, "policy": "pal"} for x in (8.0, 10.0, 12.0)]
    assert waiting_load([*las, row(8.0, 0.1), row(10.0, 1.0), row(12.0, 9.0)]) == 10.0
    assert waiting_load([*las, row(8.0, 0.1), row(10.0, 0.2), row(12.0, 0.3)]) == 12.0
    assert waiting_load([]) == 8.0
