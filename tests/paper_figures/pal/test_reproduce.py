"""The PAL reproductions on tiny Sia-Philly files written here, without traces, and on the
real trace folder when it is present."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packgap.analysis.figures import reproductions
from packgap.analysis.kit import no_tick
from packgap.errors import PackgapError
from packgap.instances.traces import traces_dir
from packgap.paper_figures.gaps.placement_rounds import gap_rows, round_key
from packgap.paper_figures.pal.fig18 import growth_exponents, overhead_rows
from packgap.paper_figures.pal.plots import primal
from packgap.paper_figures.pal.sia_philly import sia_philly, simulate_policy
from packgap.placement import Job
from tests.placement.strategies import rounds

REPRODUCTIONS = reproductions()
PNG = b"\x89PNG\r\n\x1a\n"
MODELS = ("vgg19", "PointNet", "DCGAN", "resnet50", "BERT", "GPT2")


def write_sia_philly(root: Path, workloads: tuple[int, ...] = (1, 3, 5)) -> None:
    """A 16-GPU blox table (4 nodes x 4, classes A-D) and a few 8-job workloads."""
    pal = root / "pal"
    (pal / "blox-sim-inputs").mkdir(parents=True)
    (pal / "sia_philly_workloads").mkdir()
    (pal / "blox-sim-inputs" / "gpu_perfvar_64gpu_seed42.csv").write_text(
        "GPU_ID,Node_ID,Local_GPU_ID,PerfVar_classA,PerfVar_classB,PerfVar_classC,PerfVar_classD\n"
        + "".join(
            f"{g},{g // 4},{g % 4},{0.9 + (g * 7 % 16) / 20},{1 + g / 40},{1.0},{1.05 - g / 100}\n" for g in range(16)
        )
    )
    for w in workloads:
        lines = [
            f"{i},{(1, 2, 4, 8, 1, 4, 12, 1)[i]},{60 * i * w},{3000 + 500 * i},{MODELS[(i + w) % 6]}\n"
            for i in range(8)
        ]
        (pal / "sia_philly_workloads" / f"workload-{w}.csv").write_text(
            "job_id,num_gpus,submit_time,duration,model\n" + "".join(lines)
        )


@pytest.fixture
def tiny_traces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_sia_philly(tmp_path / "traces")
    monkeypatch.setenv("PACKGAP_TRACES", str(tmp_path / "traces"))
    return tmp_path / "traces"


@pytest.fixture
def no_traces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PACKGAP_TRACES", str(tmp_path / "empty"))


def drawn(paths: list[Path]) -> list[str]:
    assert paths and all(p.read_bytes()[:8] == PNG for p in paths if p.suffix == ".png")
    return sorted(p.suffix for p in paths)


def test_fig11_rows_compare_and_draw(tiny_traces: Path, tmp_path: Path) -> None:
    rep = REPRODUCTIONS["pal-fig11"]
    rows = rep.compute(True, no_tick)
    assert len(rows) == 3 * 6 and {r["readings"] for r in rows} == {"paper"}
    assert all(r["mean_jct_s"] > 0 and r["makespan_s"] >= r["mean_jct_s"] for r in rows)
    values = rep.compare(rows)
    assert {v.paper for v in values if v.quantity.startswith("pal geomean avg JCT")} == {43.0}
    assert all(isinstance(v.ours, float) for v in values)
    assert drawn(rep.draw(rows, tmp_path)) == [".pdf", ".png"]


def test_fig13_and_fig12(tiny_traces: Path, tmp_path: Path) -> None:
    fig13 = REPRODUCTIONS["pal-fig13"]
    rows = fig13.compute(True, no_tick)
    assert sorted({r["l_across"] for r in rows}) == [1.0, 3.0]
    single = [r for r in rows if r["policy"] == "packed-sticky" and r["workload"] == 1]
    assert single[0]["mean_jct_s"] <= single[1]["mean_jct_s"]
    assert all(isinstance(v.ours, float) for v in fig13.compare(rows))
    assert drawn(fig13.draw(rows, tmp_path)) == [".pdf", ".png"]
    fig12 = REPRODUCTIONS["pal-fig12"]
    rows = fig12.compute(True, no_tick)
    assert [(r["workload"], r["policy"]) for r in rows][:3] == [(3, "pm-first"), (3, "pal"), (3, "packed-sticky")]
    assert all(len(r["job"]) == 8 and min(r["wait_s"]) >= 0 for r in rows)
    assert len(fig12.compare(rows)) == 6 and drawn(fig12.draw(rows, tmp_path))


def test_round_gaps_certify_every_round(tiny_traces: Path, tmp_path: Path) -> None:
    sia = sia_philly()
    assert not isinstance(sia, str)
    rows = gap_rows(sia, [1], ["pal", "packed-sticky"], every=1, time_limit=5.0, tick=no_tick)
    for r in rows:
        assert len(r["round"]) == len(r["objective"]) == len(r["exact"]) > 0
        for objective, exact, bound in zip(r["objective"], r["exact"], r["bound"], strict=True):
            assert bound <= exact + 1e-9 and exact <= objective + 1e-9
    assert all(g >= 0 for g in primal(rows))
    rep = REPRODUCTIONS["pal-round-gaps"]
    values = rep.compare(rows)
    assert len(values) == 6 and all(v.ours is not None and v.ours >= 0 for v in values)
    assert drawn(rep.draw(rows, tmp_path)) == [".pdf", ".png"]


@settings(max_examples=30, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_round_key_ignores_ids_and_order_only(instance, rnd) -> None:
    jobs = list(instance.jobs)
    rnd.shuffle(jobs)
    renamed = tuple(replace(j, id=f"x{k}") for k, j in enumerate(jobs))
    assert round_key(replace(instance, jobs=renamed, name="other")) == round_key(instance)
    extra = replace(instance, jobs=(*instance.jobs, Job("new", 1, instance.classes[0], "m1")))
    assert round_key(extra) != round_key(instance)


def test_fig18_rows_and_figure(tmp_path: Path) -> None:
    rows = overhead_rows((16, 32), 2, 20, no_tick)
    generated = [r for r in rows if r["setting"] == "generated"]
    assert [(r["gpus"], r["policy"]) for r in generated] == [
        (16, "pal"),
        (16, "pm-first"),
        (32, "pal"),
        (32, "pm-first"),
    ]
    assert all(len(r["place_s"]) == len(r["bins_s"]) == 2 for r in generated)
    synergy = [r for r in rows if r["setting"] == "synergy"]
    assert all(len(r["place_s"]) == len(r["jobs"]) > 0 and min(r["jobs"]) >= 1 for r in synergy)
    rep = REPRODUCTIONS["pal-fig18"]
    values = {v.quantity: v for v in rep.compare(rows)}
    assert values["PAL median seconds per round, 256 GPUs"].paper == 2.8
    assert all(v.ours is not None and v.ours >= 0 for v in values.values())
    assert drawn(rep.draw(rows, tmp_path)) == [".pdf", ".png"]


@pytest.mark.parametrize("name", ["pal-fig11", "pal-fig12", "pal-fig13", "pal-round-gaps", "pal-synergy", "pal-table4"])
def test_without_traces_rows_say_so(no_traces: None, tmp_path: Path, name: str) -> None:
    rep = REPRODUCTIONS[name]
    rows = rep.compute(True, no_tick)
    assert len(rows) == 1 and rows[0]["missing"].startswith("traces not available")
    values = rep.compare(rows)
    assert values and all(v.ours is None and v.note.startswith("traces not available") for v in values)
    assert rep.draw(rows, tmp_path) == []


def _real() -> Path | None:
    try:
        folder = traces_dir(None) / "pal" / "sia_philly_workloads"
    except PackgapError:
        return None
    return folder if folder.is_dir() else None


@pytest.mark.traces
@pytest.mark.skipif(_real() is None, reason="no ../shared/traces/pal")
def test_real_workload_1_matches_the_readme() -> None:
    """Workload 1 with the artifact's table: Tiresias 30,244 s (the artifact's replay), PAL 25,287 s."""
    sia = sia_philly()
    assert not isinstance(sia, str) and sorted(sia.workloads) == list(range(1, 9))
    tiresias = simulate_policy(sia, sia.cluster, 1, "packed-sticky", "paper").mean_jct
    pal = simulate_policy(sia, sia.cluster, 1, "pal", "paper").mean_jct
    assert tiresias == pytest.approx(30_243.99375) and pal == pytest.approx(25_287.24375)


def test_fig18_growth_exponent_is_the_log_log_slope() -> None:
    rows = [
        {"setting": "generated", "gpus": g, "policy": p, "place_s": [t, 9 * t, t]}
        for p, scale in (("pal", 1.0), ("pm-first", 3.0))
        for g, t in ((256, 5.0), (1_024, scale), (4_096, scale * 4**1.5), (16_384, scale * 16**1.5))
    ]
    values = growth_exponents(rows)
    assert [v.quantity for v in values] == [
        "pal growth exponent of seconds per round, 1,024 to 16,384 GPUs",
        "pm-first growth exponent of seconds per round, 1,024 to 16,384 GPUs",
    ]
    assert all(v.ours == pytest.approx(1.5) for v in values)
    assert growth_exponents(rows, smallest=16_384) == []
