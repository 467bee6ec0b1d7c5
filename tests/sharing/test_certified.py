"""The certified-gap study (issue 18.2/18.4): the split at the proven optimum and the Pollux mode
on tiny trace files written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.analysis.sharing import certified
from packgap.analysis.sharing.exact_scaling import instance
from packgap.errors import PackgapError
from packgap.instances.traces import ENV
from tests.paper_figures.sjf_bsbf.test_pollux_load import write_traces


def test_split_puts_the_optimum_between_the_bound_and_every_non_preemptive_policy() -> None:
    split = certified.split(6, 4)
    assert split is not None, "6 jobs are proven within a second"
    inst = instance(6, 4)
    non_preemptive = certified.best_class_policy(inst)
    assert split.gap.bound_s <= split.optimum_s * (1 + 1e-9) <= non_preemptive * (1 + 1e-9)
    assert split.below == pytest.approx(1 - split.gap.bound_s / split.optimum_s)
    assert split.above == pytest.approx(split.gap.best_s / split.optimum_s - 1)
    assert split.preempted == pytest.approx(1 - split.tiresias_s / split.optimum_s)
    # The best policy is Tiresias or a non-preemptive one; the latter never beats the optimum.
    assert split.above >= 0 or split.gap.best_s == pytest.approx(split.tiresias_s)


def test_class_floor_is_the_class_gap_where_exact_bb_proves_the_optimum() -> None:
    """README 6 jobs, seed 5 (measured: the best non-preemptive policy 18.6 % above the proven
    optimum): the floor is the true class gap, every class bound certifies at least it, and
    exact-bb certifies exactly it."""
    inst = instance(6, 5)
    row = certified.class_floor(inst, 5)
    assert row.proven and row.bound_s == pytest.approx(row.schedule_s, rel=1e-9)
    assert row.floor == pytest.approx(1 - row.schedule_s / row.best_s) and row.floor > 0.15
    assert row.certified == pytest.approx(row.floor, abs=1e-9)
    assert certified.measure_class(inst, 5).gap >= row.floor - 1e-9


def test_a_stopped_search_brackets_the_class_gap() -> None:
    """README 10 jobs, seed 10, stopped after 3 s: exact-bb's schedule beats every
    non-preemptive policy (measured: by 26 % after 60 s), so the floor is positive, and its bound
    certifies a class gap at least the floor."""
    row = certified.class_floor(instance(10, 10), 10, time_limit=3.0)
    assert not row.proven and 0 < row.floor <= row.certified < 1


def test_the_command_prints_the_class_floor(capsys: pytest.CaptureFixture[str]) -> None:
    certified.main(["--jobs", "6", "--seeds", "5", "--class-floor"])
    out = capsys.readouterr().out
    assert "6 jobs (1 proven): no class bound certifies the best non-preemptive policy below 15." in out


def test_pollux_mode_reads_the_1x_workloads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_traces(tmp_path)
    monkeypatch.setenv(ENV, str(tmp_path))
    gap = certified.measure_pollux(1)
    assert gap.jobs == 3
    assert 0 <= gap.gap <= gap.cheap_gap + 1e-12
    with pytest.raises(PackgapError, match=r"workload-2\.csv"):
        certified.measure_pollux(2)


def test_the_command_prints_the_split_and_the_pollux_gaps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    certified.main(["--jobs", "6", "--seeds", "4", "--optimum"])
    assert "6 jobs (1 proven): best policy" in capsys.readouterr().out
    write_traces(tmp_path)
    monkeypatch.setenv(ENV, str(tmp_path))
    certified.main(["--pollux", "--seeds", "1"])
    assert "Pollux 1x: mean certified gap" in capsys.readouterr().out
