"""The sharing generator's default workload, calibrated to Table III (issue 30.2): the run times
and queuing Table III implies, reached by SJF and FIFO on seeds 1-3; v1 stays as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap import jsonio
from packgap.errors import PackgapError
from packgap.heuristics.sharing.exclusive import fifo, sjf
from packgap.instances.sharing.generator import generate
from packgap.sharing import instance as sharing_instance
from packgap.sharing.evaluate import evaluate
from tests.clirun import packgap

HOUR = 3600.0


def test_the_command_writes_the_default_table3_workload(tmp_path: Path) -> None:
    done = packgap("instances", "generate", "sharing", "--jobs", "240", "--seed", "1", "-o", "w.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = sharing_instance.from_dict(jsonio.read(tmp_path / "w.json"))
    assert written == generate(240, 1) == generate(240, 1, workload="table3")
    assert written != generate(240, 1, workload="v1")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sjf_and_fifo_meet_table_iii(seed: int) -> None:
    inst = generate(240, seed)
    shortest, first = evaluate(inst, sjf(inst)).metrics, evaluate(inst, fifo(inst)).metrics
    small = (shortest["small_avg_jct_s"] - shortest["small_avg_queuing_s"]) / HOUR
    large = (shortest["large_avg_jct_s"] - shortest["large_avg_queuing_s"]) / HOUR
    assert small == pytest.approx(0.55, rel=0.2)
    assert large == pytest.approx(1.74, rel=0.2)
    assert shortest["avg_queuing_s"] / HOUR == pytest.approx(0.56, rel=0.3)
    assert first["avg_queuing_s"] / HOUR == pytest.approx(1.65, rel=0.3)


def test_arrivals_come_in_three_bursts_and_xi_is_one_point_one() -> None:
    inst = generate(60, 4, nodes=64)
    assert inst.name == "sharing-table3-n60-s4"
    assert len({j.arrival for j in inst.jobs}) <= 3, "3 bursts"
    assert set(inst.interference.pairs.values()) == {1.1}


def test_a_median_is_refused_where_the_classes_set_the_means() -> None:
    with pytest.raises(PackgapError, match="duration-median-s applies to --workload v1"):
        generate(10, 1, duration_median_s=900.0)
    with pytest.raises(PackgapError, match="--workload must be one of table3, v1, physical"):
        generate(10, 1, workload="simulation")
