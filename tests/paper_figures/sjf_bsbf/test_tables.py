"""SJF-BSBF's Table IV reproduction: rows, paper values (the copy error, Pollux not reproduced) and figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.analysis.agreement import agrees
from packgap.errors import PackgapError
from packgap.instances.traces import traces_dir
from packgap.paper_figures import sjf_bsbf


def _pollux_traces() -> Path | None:
    try:
        root = traces_dir(None)
    except PackgapError:
        return None
    return root if (root / "pollux" / "workloads-1.5").is_dir() and (root / "gavel").is_dir() else None


def test_reproduction_rows_draw_and_compare(tmp_path: Path) -> None:
    repro = {r.item: r for r in sjf_bsbf.REPRODUCTIONS}
    rows = repro["Table IV"].compute(True, lambda *a: None)
    values = repro["Table IV"].compare(rows)
    assert any("copy error" in v.note for v in values)
    assert any(v.quantity.startswith("pollux") and v.ours is None for v in values)
    assert all(v.ours is not None and v.ours > 0 for v in values if v.quantity.startswith("sjf-bsbf"))
    paths = repro["Table IV"].draw(rows, tmp_path)
    assert {p.suffix for p in paths} == {".png", ".pdf"} and all(p.stat().st_size > 0 for p in paths)


def _rows(workload: str, seed: int) -> dict[str, object]:
    from packgap.instances.sharing.generator import generate
    from packgap.paper_figures.sjf_bsbf.common import simulate_row

    return simulate_row(generate(24, seed, nodes=2), {"workload": workload, "seed": seed}, lambda *a: None, False)


def test_with_the_class_bound_each_non_preemptive_policy_gets_its_class_gap() -> None:
    """Issue 35.3: FIFO, SJF, SJF-FFS and SJF-BSBF get their class gap beside their certified gap
    against the bound valid for every schedule, each row naming its bound; Tiresias gets none."""
    from packgap.instances.sharing.generator import generate
    from packgap.paper_figures.sjf_bsbf.common import CLASS_NOTE, NON_PREEMPTIVE, bound_values, simulate_row

    inst = generate(6, 3, nodes=4, hours=0.5, workload="physical")
    row = simulate_row(inst, {"seed": 3}, lambda *a: None, class_bound=True)
    values = {v.quantity: v for v in bound_values("Table II", [row], 1.0, "s")}
    assert not [q for q in values if q.startswith("tiresias")]
    for p in NON_PREEMPTIVE:
        cls, every = values[f"{p} class gap"], values[f"{p} certified gap, all classes"]
        assert cls.ours is not None and every.ours is not None and cls.note == CLASS_NOTE
        assert 0 <= cls.ours < every.ours, p  # the class bound is the tighter one here
    assert values["class bound on avg JCT"].ours > values["cheap bound on avg JCT"].ours


def test_table_iii_compares_both_workloads_with_the_claim_vs_sjf() -> None:
    from packgap.paper_figures.sjf_bsbf import table3_table4 as t

    rows = [_rows("generated", 1), _rows("pollux", 2)]
    values = t.TABLE3_REPRODUCTION.compare(rows)
    by_item = {(v.item, v.quantity): v for v in values}
    for item, name in (("Table III (generated)", ""), ("Table III (Pollux workloads-1.5)", " (Pollux)")):
        claim = by_item[(item, "SJF-BSBF's JCT reduction vs SJF" + name)]
        assert claim.paper == pytest.approx(1 - 1.01 / 1.25) and claim.direction is not None
        assert claim.ours is not None
    pollux = [v for v in values if v.item == "Table III (Pollux workloads-1.5)"]
    assert {v.quantity for v in pollux} >= {"sjf avg JCT all (Pollux)", "sjf-bsbf avg queuing small (Pollux)"}
    assert sum(v.direction is not None for v in pollux) >= 20, "each policy ordered against SJF-BSBF"
    # Every quantity once, so that a direction names the value of its own workload.
    assert len({v.quantity for v in values}) == len(values)
    assert all(agrees(v, values) for v in values)
    targets = [v for v in values if v.quantity.startswith("calibration target")]
    assert len(targets) == len(t.TARGETS) and all(v.ours is not None for v in targets)


def test_without_pollux_files_a_row_says_so() -> None:
    from packgap.paper_figures.sjf_bsbf import table3_table4 as t

    rows = [_rows("generated", 1), {"workload": "pollux", "missing": "traces not available: none here"}]
    (last,) = [v for v in t.TABLE4_REPRODUCTION.compare(rows) if "Pollux" in v.item]
    assert last.ours is None and last.note.startswith("traces not available")
    assert last.item == "Table IV (Pollux workloads-2.0)"


@pytest.mark.slow
@pytest.mark.traces
@pytest.mark.skipif(_pollux_traces() is None, reason="no Pollux / Gavel trace folder")
def test_table_iii_runs_the_published_240_job_file_in_quick_mode() -> None:
    from packgap.paper_figures.sjf_bsbf import table3_table4 as t

    rows = t.TABLE3_REPRODUCTION.compute(True, lambda *a: None)
    pollux = [r for r in rows if r["workload"] == "pollux"]
    assert [(r["file"], r["jobs"], len(r["runs"])) for r in pollux] == [("workload-1", 240, 5)]
