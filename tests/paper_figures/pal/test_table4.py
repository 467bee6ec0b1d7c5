"""The simulated half of PAL's testbed comparison (Table IV, Figs. 9-10) on tiny files written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packgap.analysis.figures import reproductions
from packgap.analysis.kit import no_tick
from packgap.paper_figures.pal.table4 import FRONTERA, PENALTIES, SEEDS, gain, mean_jct_h

REP = reproductions()["pal-table4"]
MODELS = ("PointNet", "DCGAN", "vgg19", "resnet50")


@pytest.fixture
def traces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """12 jobs of the Sia-Cluster columns, and 80-run profiles where one GPU in ten is 1.5x slow."""
    pal = tmp_path / "traces" / "pal"
    (pal / "variability").mkdir(parents=True)
    jobs = "".join(f"{i},{(1, 4, 8, 2)[i % 4]},{120 * i},{2000 + 300 * i},{MODELS[i % 4]},64\n" for i in range(12))
    (pal / "sia-160job-trace.csv").write_text("job_id,num_gpus,submit_time,duration,model,batch_size\n" + jobs)
    perf = "perf\n" + "".join(f"{1.5 if i % 10 == 0 else 1 + i / 800}\n" for i in range(80))
    for name in (*FRONTERA.values(), "resnet-longhorn-agg.csv", "bert-longhorn-agg.csv", "pagerank-longhorn-agg.csv"):
        (pal / "variability" / name).write_text(perf)
    mapping = {"classA": "resnet", "classB": "bert", "classC": "bert", "classD": "pagerank"}
    (pal / "variability" / "profiles.json").write_text(
        json.dumps({c: f"{f}-longhorn-agg.csv" for c, f in mapping.items()})
    )
    monkeypatch.setenv("PACKGAP_TRACES", str(tmp_path / "traces"))
    return pal


def test_rows_compare_and_draw(traces: Path, tmp_path: Path) -> None:
    rows = REP.compute(True, no_tick)
    assert len(rows) == 2 * len(PENALTIES) * len(SEEDS) * 2
    assert all(len(r["jct_s"]) == 12 and r["makespan_s"] >= max(r["jct_s"]) for r in rows)
    # A larger locality penalty slows every multi-node job: Tiresias' average JCT cannot drop.
    assert mean_jct_h(rows, "packed-sticky", 1.7) >= mean_jct_h(rows, "packed-sticky", 1.0)
    values = {v.quantity: v for v in REP.compare(rows)}
    tiresias = values["Tiresias avg JCT in simulation, L_across 1"]
    assert tiresias.paper == 1.56 and tiresias.ours == pytest.approx(mean_jct_h(rows, "packed-sticky", 1.0))
    improvement = values["PAL avg JCT improvement over Tiresias in simulation, L_across 1.7"]
    assert improvement.ours == pytest.approx(gain(rows, 1.7)) and "Longhorn" in improvement.note
    paths = REP.draw(rows, tmp_path)
    assert sorted(p.name for p in paths) == ["pal_fig9_10.pdf", "pal_fig9_10.png"]
