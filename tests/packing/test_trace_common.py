"""The trace builders' common part: cell errors with line and column, job selection, the
CUCKOO section 4.1 mapping of trace jobs to packing jobs; and :func:`built`, which the
per-source tests use to run a builder as ``instances from-trace`` and read its file back as
``instances check`` does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from packgap import jsonio
from packgap.analysis import registry
from packgap.analysis.kit import check_options
from packgap.errors import InstanceError, PackgapError
from packgap.instances.packing import from_trace
from packgap.instances.packing.generator import TABLE8, fastest_iteration_ms
from packgap.instances.packing.trace_records import MAX_LISTED, CellReader, JobTrace, TraceRecord, arrivals, select
from packgap.packing.instance import from_dict, to_dict


def built(name: str, path: Path, out: Path, traces: str | None = None, **options: Any) -> Any:
    """Builder ``name`` on ``path`` with the CLI's option checks; the file it writes must load
    back (``instances check``) to the same value, and the same options give the same bytes."""
    builder = registry.trace_builder(name)
    opts = {**check_options(builder.options, options, name), "traces": traces}
    value = builder.build(path, opts)
    jsonio.write(registry.to_document(builder.target, value), out)
    assert registry.load_document(out).value == value
    assert jsonio.dumps(registry.to_document(builder.target, builder.build(path, opts))) == out.read_text()
    return value


def write_lines(path: Path, *lines: str) -> Path:
    """``path`` holding ``lines``, one a line (a trace file in its own format)."""
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def trace(*jobs: tuple[float, int, float], path: str = "t.csv") -> JobTrace:
    """Records (submit, gpus, duration) on lines 2, 3, ..."""
    return JobTrace(Path(path), "gpus", tuple(TraceRecord(i + 2, f"j{i}", s, g, d) for i, (s, g, d) in enumerate(jobs)))


def test_cell_reader_names_line_and_column_and_caps_the_list() -> None:
    cells = CellReader(Path("x.csv"))
    assert cells.number(2, "a", "1.5") == 1.5
    assert cells.number(3, "a", "-1") is None
    assert cells.number(4, "b", "nan") is None
    assert cells.number(5, "b", "2.5", integer=True) is None
    assert cells.number(6, "b", "x") is None
    with pytest.raises(InstanceError) as err:
        cells.finish()
    assert [p.path for p in err.value.problems] == [
        f"line {n}, column {c}" for n, c in ((3, "a"), (4, "b"), (5, "b"), (6, "b"))
    ]
    assert "x.csv" in str(err.value)
    for line in range(MAX_LISTED + 5):
        cells.error(line, "c", "bad")
    with pytest.raises(InstanceError, match=r"\.\.\. and 9 more"):
        cells.finish()


def test_select_orders_counts_and_names_wide_jobs() -> None:
    t = trace((30.0, 1, 10.0), (10.0, 16, 10.0), (10.0, 2, 10.0), (20.0, 1, 10.0))
    assert [r.id for r in select(t, None, 16, False, "x")] == ["j1", "j2", "j3", "j0"]
    assert [r.id for r in select(t, 2, 8, True, "x")] == ["j2", "j3"]
    with pytest.raises(InstanceError) as err:
        select(t, 2, 8, False, "the cluster")
    assert [p.path for p in err.value.problems] == ["line 3, column gpus"]
    assert "--drop-wide" in str(err.value)
    with pytest.raises(PackgapError, match="no jobs"):
        select(trace((0.0, 9, 1.0)), None, 8, True, "x")
    assert arrivals(select(t, None, 16, False, "x")) == [0.0, 0.0, 10.0, 20.0]


records = st.lists(
    st.tuples(
        st.floats(0, 1e7, allow_nan=False),
        st.sampled_from((1, 2, 4, 8, 16)),
        st.floats(0, 1e6, allow_nan=False),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(records, st.integers(0, 2**32), st.integers(1, 12))
def test_every_trace_gives_a_valid_instance_with_the_section41_rules(jobs, seed, max_jobs) -> None:
    assume(any(g <= 8 for _, g, _ in jobs))
    t = trace(*jobs)
    inst = from_trace.build(t, "t", seed, max_jobs=max_jobs, drop_wide=True)
    assert from_dict(to_dict(inst)) == inst
    assert len(inst.jobs) == min(max_jobs, sum(g <= 8 for _, g, _ in jobs))
    assert inst.jobs[0].arrival == 0.0
    assert [j.arrival for j in inst.jobs] == sorted(j.arrival for j in inst.jobs)
    by_id = {f"j{i}": job for i, job in enumerate(jobs)}
    origin = min(by_id[job.id][0] for job in inst.jobs)
    for job in inst.jobs:
        submit, gpus, duration = by_id[job.id]
        assert job.arrival == round(submit - origin, 3) and job.gpus == gpus and job.model.split("-bs")[0] in TABLE8
        fastest = fastest_iteration_ms(job.profiles, job.sync, inst.interleaving, inst.interference) / 1000.0
        assert job.iterations == max(1, round(duration / fastest))
        assert job.deadline >= job.arrival + job.iterations * fastest - 1e-3
    assert from_trace.build(t, "t", seed, max_jobs=max_jobs, drop_wide=True) == inst


def test_models_are_drawn_by_the_seed_not_taken_from_the_trace() -> None:
    t = trace(*((float(i), 1, 600.0) for i in range(40)))
    a, b = from_trace.build(t, "t", 1), from_trace.build(t, "t", 2)
    assert len({j.model.split("-bs")[0] for j in a.jobs}) >= 5
    assert [j.model for j in a.jobs] != [j.model for j in b.jobs]
    assert a.name == "t-n40-s1" and [j.gpus for j in a.jobs] == [1] * 40
    with pytest.raises(InstanceError, match="exceed every GPU type"):
        from_trace.build(trace((0.0, 4, 1.0)), "t", 0, gpu_types=(("V100", 2),))
