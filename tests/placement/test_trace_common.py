"""Cluster traces from trace jobs (:mod:`packgap.instances.placement.from_trace`): PAL models and classes,
work from durations, cluster shape, PM-score factors from profiles or synthetic, simulation."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from packgap.analysis.placement.simulate import simulate_trace
from packgap.errors import InstanceError, PackgapError
from packgap.instances.placement import from_trace
from packgap.instances.placement.rounds import PAPER_MODEL_CLASSES
from packgap.instances.placement.sim import ARTIFACT_ITER_TIMES
from packgap.placement.trace import from_dict, to_dict
from tests.packing.test_trace_common import trace


def write_variability(traces: Path, rows: int = 40) -> Path:
    """A ``pal/variability`` folder: ``profiles.json`` and one ``perf`` file per class A-D."""
    folder = traces / "pal" / "variability"
    folder.mkdir(parents=True, exist_ok=True)
    classes = {}
    for k, cls in enumerate("ABCD"):
        name = f"{cls.lower()}-agg.csv"
        perf = "".join(f"{100.0 + i * (k + 1) * 0.37}\n" for i in range(rows))
        (folder / name).write_text("perf\n" + perf, encoding="utf-8")
        classes[f"class{cls}"] = f"aggregated_data/sim/{name}"
    (folder / "profiles.json").write_text(json.dumps(classes), encoding="utf-8")
    return traces


def test_jobs_get_pal_models_classes_and_work() -> None:
    t = trace((50.0, 1, 3600.0), (10.0, 4, 0.0), (30.0, 8, 100.0))
    built = from_trace.build(t, "c", 5, gpus=16, factors="synthetic")
    assert built.name == "c-n3-g16-synthetic-s5" and built.round_length == 300.0
    assert (built.cluster.nodes, built.cluster.gpus_per_node, built.cluster.classes) == (4, 4, ("A", "B", "C"))
    assert [(j.id, j.submit_time, j.gpus) for j in built.jobs] == [("j1", 0.0, 4), ("j2", 20.0, 8), ("j0", 40.0, 1)]
    for job, duration in zip(built.jobs, (0.0, 100.0, 3600.0), strict=True):
        assert job.iter_time == ARTIFACT_ITER_TIMES[job.model] and job.job_class == PAPER_MODEL_CLASSES[job.model]
        assert job.work == max(1, math.ceil(duration / job.iter_time))
    assert from_dict(to_dict(built)) == built
    result = simulate_trace(built, "fifo", "pal")
    assert set(result.jct) == {"j0", "j1", "j2"}


def test_cluster_shape_and_wide_jobs() -> None:
    t = trace((0.0, 1, 60.0), (1.0, 32, 60.0))
    with pytest.raises(PackgapError, match="multiple of --gpus-per-node"):
        from_trace.build(t, "c", 0, gpus=18, factors="synthetic")
    with pytest.raises(InstanceError) as err:
        from_trace.build(t, "c", 0, gpus=16, factors="synthetic")
    assert [p.path for p in err.value.problems] == ["line 3, column gpus"]
    narrow = from_trace.build(t, "c", 0, gpus=16, gpus_per_node=8, factors="synthetic", drop_wide=True)
    assert [j.id for j in narrow.jobs] == ["j0"] and narrow.cluster.nodes == 2
    with pytest.raises(PackgapError, match="--factors"):
        from_trace.build(t, "c", 0, factors="nope", drop_wide=True)


def test_profile_factors_are_sampled_without_repetition(tmp_path: Path) -> None:
    traces = write_variability(tmp_path / "traces")
    t = trace((0.0, 1, 60.0), (1.0, 2, 60.0))
    built = from_trace.build(t, "c", 3, gpus=8, traces=traces)
    assert built.cluster.classes == ("A", "B", "C", "D")
    assert all(len(set(v)) == len(v) == 8 for v in built.cluster.pm_scores.values())
    with pytest.raises(PackgapError, match="without repetition"):
        from_trace.build(t, "c", 3, gpus=64, traces=traces)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 1e7, allow_nan=False), st.integers(1, 20), st.floats(0, 1e6, allow_nan=False)),
        min_size=1,
        max_size=10,
    ),
    st.integers(0, 2**32),
)
def test_every_trace_gives_a_valid_cluster_trace(jobs, seed) -> None:
    assume(any(g <= 16 for _, g, _ in jobs))
    built = from_trace.build(trace(*jobs), "c", seed, gpus=16, factors="synthetic", drop_wide=True)
    assert from_dict(to_dict(built)) == built
    assert built.jobs[0].submit_time == 0.0
    durations = {f"j{i}": d for i, (_, _, d) in enumerate(jobs)}
    assert all(j.work * j.iter_time >= durations[j.id] for j in built.jobs)
