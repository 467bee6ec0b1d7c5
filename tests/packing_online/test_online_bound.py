"""Lower bound and offline references for online runs (packgap.analysis.packing.online_bound)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings

from packgap.analysis.packing.online import PIPELINE_NAMES, compare_online, online_document
from packgap.analysis.packing.online_bound import jct_lower_bound, references
from packgap.analysis.registry import methods
from packgap.heuristics.packing.pipeline import PipelineOptions, run_pipeline
from packgap.jsonio import dumps
from packgap.packing import FAMILY, PackingInstance
from packgap.packing.instance import from_dict
from packgap.solvers.outcome import SolveOptions
from tests.packing.strategies import instances, tiny_document
from tests.packing_online.cases import three_jobs


def test_bound_of_the_hand_example() -> None:
    # Identical jobs interleave no faster than alone: the bound is the mean standalone time.
    assert jct_lower_bound(three_jobs()) == pytest.approx((100 + 50 + 20) / 3)


@settings(max_examples=15, deadline=None)
@given(instances(max_jobs=6))
def test_bound_below_every_online_and_offline_pipeline(inst: PackingInstance) -> None:
    bound = jct_lower_bound(inst)
    for report in compare_online(inst, PIPELINE_NAMES, interval_s=30.0):
        assert bound <= report.metrics["mean_jct_s"] + 1e-6
    offline = run_pipeline(inst, "dab", "mchp", PipelineOptions())
    assert bound <= FAMILY.evaluate(inst, offline).metrics["mean_jct_s"] + 1e-6


@pytest.mark.skipif("exact-cpsat" not in methods("packing"), reason="no exact packing method registered")
def test_offline_optimum_sits_between_bound_and_online_runs() -> None:
    inst = replace(from_dict(tiny_document()), objective="mean-jct")
    refs = references(inst, exact="exact-cpsat", options=SolveOptions(time_limit=30.0))
    assert refs[0].kind == "lower bound"
    assert refs[-1].kind in ("offline optimum", "offline bound")
    assert refs[0].mean_jct_s <= refs[-1].mean_jct_s + 1e-6
    for report in compare_online(inst, ["dab+mchp", "none+edf"], interval_s=5.0):
        assert refs[-1].mean_jct_s <= report.metrics["mean_jct_s"] + 1e-6


def test_online_document_names_references_and_runs() -> None:
    inst = three_jobs()
    document = online_document(inst, compare_online(inst, ["none+edf"]), references(inst))
    assert document["references"] == [
        {"kind": "lower bound", "mean_jct_s": pytest.approx(170 / 3), "source": "standalone-or-best-partner offsets"}
    ]
    assert [p["pipeline"] for p in document["pipelines"]] == ["none+edf"]
    dumps(document)
