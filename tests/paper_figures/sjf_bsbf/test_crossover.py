"""The SJF-BSBF vs SJF crossover study (issue 18.1): its pieces on small instances, the whole
quick reproduction (slow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.instances.sharing.generator import generate
from packgap.instances.traces import ENV
from packgap.paper_figures.sjf_bsbf import crossover


def _quiet(*_: object, **__: object) -> None:
    return None


def _rows() -> list[dict[str, object]]:
    grid = [
        {"kind": "grid", "load": load, "xi": xi, "seed": s, "sjf_s": 100.0, "bsbf_s": 100.0 * xi or 90.0}
        for load in (1.0, 2.0)
        for xi in (0.0, 1.0, 2.0)
        for s in (1, 2)
    ]
    causes = [{"kind": "cause", "cause": "baseline", "seed": 1, "sjf_s": 100.0, "bsbf_s": 120.0}]
    waits = [{"kind": "wait", "seed": 1, "assumed_s": [3600.0, 7200.0], "sjf_queue_s": [0.0, 360.0]}]
    return grid + causes + waits


def test_reduction_is_one_minus_the_ratio_of_means() -> None:
    rows = [{"sjf_s": 100.0, "bsbf_s": 80.0}, {"sjf_s": 300.0, "bsbf_s": 400.0}]
    assert crossover.reduction(rows) == pytest.approx(1 - 240 / 200)


def test_compare_names_every_cell_and_the_paper_claims() -> None:
    values = {v.quantity: v for v in crossover.compare(_rows())}
    at_1x = values["SJF-BSBF's JCT reduction vs SJF at 1x, xi U(1.1,2)"]
    assert at_1x.paper == pytest.approx(1 - 1.01 / 1.25)
    assert at_1x.ours == pytest.approx(0.1)
    assert values["SJF-BSBF's JCT reduction vs SJF at 2x, xi 2"].ours == pytest.approx(-1.0)
    assert values["SJF-BSBF's JCT reduction vs SJF at 2x, xi 2"].paper is None
    assert values["SJF-BSBF's JCT reduction vs SJF, baseline"].ours == pytest.approx(-0.2)
    assert values["wait Theorem 1 assumes at a shared start (mean)"].ours == pytest.approx(1.5)
    assert values["the same jobs' queueing under SJF (mean)"].ours == pytest.approx(0.05)


def test_draw_writes_png_and_pdf(tmp_path: Path) -> None:
    paths = crossover.draw(_rows(), tmp_path)
    assert [p.suffix for p in paths] == [".png", ".pdf"]
    assert all(p.stat().st_size > 0 for p in paths)


def test_assumed_waits_are_the_shared_starts_of_sjf_bsbf() -> None:
    instance = generate(40, 2, nodes=2, hours=1.0, workload="v1")
    assumed, queued = crossover.shared_waits(instance)
    shared = [s for s in sjf_bsbf(instance).jobs if s.co_runner is not None]
    assert len(assumed) == len(queued) == len(shared) > 0
    assert all(w > 0 for w in assumed)
    assert all(q >= 0 for q in queued)


def test_every_cause_is_one_change_and_trace_causes_skip_without_traces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, str(tmp_path))
    base = generate(240, 1, workload="v1")
    for cause in crossover.CAUSES:
        variant = crossover._variant(cause, 1)
        if cause.startswith("xi from "):
            assert variant is None
            continue
        assert variant is not None
        instance = variant[0]
        # Readings of the algorithms and SJF's backfilling leave the workload as it is.
        assert (instance == base) == (cause in crossover.READINGS or cause in ("baseline", "SJF without backfill"))
        assert (instance.cluster.gpu_memory_gb == 24.0) == cause.endswith("24 GB GPUs")
        if not cause.startswith("Table III"):
            assert [j.iterations for j in instance.jobs] == [j.iterations for j in base.jobs]


def test_bursts_move_arrivals_back_to_their_window() -> None:
    base = generate(60, 2, workload="v1")
    bursty = crossover.bursty(base, 24, 8.0)
    window = 8 * 3600 / 24
    for before, after in zip(base.jobs, bursty.jobs, strict=True):
        assert after.arrival <= before.arrival < after.arrival + window
        assert after.arrival % window == pytest.approx(0.0, abs=1e-6)
    assert len({j.arrival for j in bursty.jobs}) <= 24


def test_the_calibrated_row_is_compared_with_table_iii() -> None:
    rows = _rows()
    rows[-2] = {**rows[-2], "cause": "Table III calibration", "fifo_s": 7200.0, "fifo_queue_s": 3600.0}
    rows[-2]["sjf_queue_s"] = 1800.0
    values = {v.quantity: v for v in crossover.compare(rows)}
    assert values["fifo avg JCT all"].paper == 2.34 and values["fifo avg JCT all"].ours == pytest.approx(2.0)
    assert values["sjf avg queuing all"].ours == pytest.approx(0.5)
    assert values["SJF-BSBF mean JCT, Table III calibration"].ours == pytest.approx(120 / 3600)


@pytest.mark.slow
def test_quick_reproduction_shows_where_sharing_pays() -> None:
    rows = crossover.compute(True, _quiet)
    cells = crossover.grid(rows)
    assert cells[(1.0, 1.0)] > 0, "free sharing (xi = 1) must beat exclusive SJF at 1x"
    assert cells[(1.0, 2.5)] < 0, "xi = 2.5 halves the pair's throughput: SJF must win"
    values = {v.quantity: v.ours for v in crossover.compare(rows)}
    assumed = values["wait Theorem 1 assumes at a shared start (mean)"]
    assert assumed is not None and assumed > values["the same jobs' queueing under SJF (mean)"]


@pytest.mark.slow
def test_the_docstring_and_sharing_cause_quote_the_full_reproduction() -> None:
    from packgap.paper_figures.sjf_bsbf.common import SHARING_CAUSE
    from tests.readme.quotes import reproduced

    values = {q: v.ours for q, v in reproduced("sjf-bsbf-crossover").items()}
    text = " ".join((crossover.__doc__ or "").split())
    for cause in crossover.CAUSES:
        if f"SJF mean JCT, {cause}" not in values and cause.startswith("xi from "):
            continue  # no trace folder here
        sjf, bsbf = values[f"SJF mean JCT, {cause}"], values[f"SJF-BSBF mean JCT, {cause}"]
        assert f"{cause} {sjf:.3f} vs {bsbf:.3f}" in text, cause
    assumed = values["wait Theorem 1 assumes at a shared start (mean)"]
    queued = values["the same jobs' queueing under SJF (mean)"]
    free = values["SJF-BSBF's JCT reduction vs SJF at 1x, xi 1"]
    assert assumed is not None and queued is not None and free is not None
    for quoted in (text, SHARING_CAUSE):
        assert f"{assumed:.2f} h" in quoted and f"{queued:.2f} h" in quoted
    assert f"{100 * free:.0f} % below SJF" in text and f"{100 * free:.0f} % below SJF's" in SHARING_CAUSE
    # The decomposition: workload, xi, memory, the reading (above: SJF-BSBF's mean JCT above SJF's).
    said = {
        "baseline": "v1 (the generator before issue 30) {} above",
        "Table III workload, xi U(1.1, 2)": "v1's xi U(1.1, 2) {} above",
        "Table III workload": "run-time inflation, {} below",
        "Table III workload, 24 GB GPUs": "24 GB GPUs, {} below",
        "Table III workload, wait at the solo sub-batch": "sub-batch, {} below",
        "wait at the solo sub-batch": "on v1 {} above",
    }
    for cause, words in said.items():
        share = values[f"SJF-BSBF's JCT reduction vs SJF, {cause}"]
        assert share is not None and words.format(f"{abs(100 * share):.1f} %") in SHARING_CAUSE, cause
