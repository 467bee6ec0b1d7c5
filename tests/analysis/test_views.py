"""``instances show --groups`` / ``--bins`` expose the exact models' inputs."""

from __future__ import annotations

from packgap import jsonio
from packgap.analysis.packing.views import packing_groups
from packgap.analysis.placement.views import placement_bins
from packgap.analysis.registry import to_document
from packgap.instances.packing.generator import generate as generate_packing
from packgap.instances.placement.rounds import generate_round
from packgap.packing.timeline import group_timelines
from tests.clirun import packgap


def test_packing_groups_list_every_pair_with_exact_timelines():
    instance = generate_packing(4, seed=2)
    groups = packing_groups(instance)
    jobs = {j.id: j for j in instance.jobs}
    pairs = [g for g in groups if len(g["jobs"]) == 2]
    equal_demand = sum(1 for i, a in enumerate(instance.jobs) for b in instance.jobs[i + 1 :] if a.gpus == b.gpus)
    assert len(groups) - len(pairs) == 4 and len(pairs) == equal_demand
    for group in groups:
        expected = group_timelines(instance, [jobs[j] for j in group["jobs"]])
        for row, timeline in zip(group["per_gpu_type"], expected, strict=True):
            assert row["completion_offset_s"] == list(timeline.completion)
            assert row["duration_s"] == max(row["completion_offset_s"])


def test_placement_bins_report_k_and_silhouettes():
    bins = placement_bins(generate_round(16, 6, seed=1))
    for b in bins:
        assert b["k"] == len(b["centroids"])
        assert set(b["silhouettes"]) == {str(k) for k in range(2, 12)}
        assert max(b["silhouettes"].values()) == b["silhouettes"][str(b["k"])]


def test_a_view_of_another_family_is_a_clear_error(tmp_path):
    path = tmp_path / "pk.json"
    jsonio.write(to_document("packing", generate_packing(2, seed=0)), path)
    done = packgap("instances", "show", str(path), "--bins", cwd=tmp_path)
    assert done.returncode == 2
    assert "--bins applies to placement, cluster-trace files" in done.stderr
    assert "Traceback" not in done.stderr


def test_cluster_trace_bins_are_the_clusters():
    from packgap.instances.placement.synergy import synergy_cluster_trace

    trace = synergy_cluster_trace(5, 10.0, seed=1, gpus=32)
    bins = placement_bins(trace)
    assert [b["job_class"] for b in bins] == list(trace.cluster.classes)
    assert all(len(b["scores"]) == 32 for b in bins)
