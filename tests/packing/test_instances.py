from __future__ import annotations

from pathlib import Path

import pytest

from packgap import jsonio
from packgap.errors import InstanceError, PackgapError
from packgap.instances.packing import muri
from packgap.instances.packing.generator import generate, helios_arrivals, muri_stages, stage_profile
from packgap.packing import FAMILY
from packgap.packing.instance import from_dict, to_dict
from tests.traces import trace_path

HEADER = (
    "job_id,num_gpu,submit_time,iterations,model_name,batch_size,duration,interval,"
    "iteration_time,resource_time_0,resource_time_1,resource_time_2,priority\n"
)
TRACES = trace_path("muri")


def test_same_seed_same_bytes() -> None:
    a, b = jsonio.dumps(to_dict(generate(40, 7))), jsonio.dumps(to_dict(generate(40, 7)))
    assert a == b
    assert a != jsonio.dumps(to_dict(generate(40, 8)))
    inst = generate(40, 7)
    assert from_dict(to_dict(inst)) == inst


def test_section41_shape() -> None:
    inst = generate(200, 3)
    assert {t.name: t.count for t in inst.gpu_types} == {"A800": 2, "RTX4090": 8, "A10": 6}
    assert {j.gpus for j in inst.jobs} == {2}
    first = sum(1 for j in inst.jobs if j.arrival < 1000)
    assert first == round(200 * 100 / 521)
    assert all(j.deadline > j.arrival for j in inst.jobs)
    assert {j.sync for j in inst.jobs if j.model.startswith("bert")} == {"before_communication"}
    mix = generate(200, 3, demands={1: 1.0, 4: 1.0})
    assert {j.gpus for j in mix.jobs} == {1, 4}


def test_arrivals_are_bursty_windows() -> None:
    import numpy as np

    times = helios_arrivals(np.random.default_rng(0), 521)
    counts = np.bincount((times // 1000).astype(int))
    assert counts[0] == 100 and all(10 <= c <= 40 for c in counts[1:-1])


def test_profiles_follow_the_mapping_rule() -> None:
    assert muri_stages("resnet18", 2) == (687, 110, 95)
    assert muri_stages("bert", 3) == (0.5, 163, 18)  # nearest measured count, ties low
    a10 = stage_profile(687, 110, 95, ("A10", 1))
    assert a10.forward + a10.backward == pytest.approx(110, abs=1e-3)
    assert a10.backward == pytest.approx(2 * a10.forward, abs=2e-3)


def test_bad_generator_arguments() -> None:
    with pytest.raises(PackgapError, match="jobs must be"):
        generate(0, 1)
    with pytest.raises(PackgapError, match="exceeds"):
        generate(5, 1, demands={16: 1.0})


def _write(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "trace.csv"
    path.write_text(HEADER + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def test_muri_builder_on_a_tiny_trace(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        [
            "0,1,5000,1000,dqn,128,490000,0,490,446,8,0,1",
            "1,2,65000,2000,bert,4,390000,0,195,0.5,163,18,0",
            "2,2,125000,500,vgg16,16,95500,0,191,114,72,40,0",
        ],
    )
    inst = muri.build(path, seed=1)
    assert [j.arrival for j in inst.jobs] == [0.0, 60.0, 120.0]
    bert = inst.jobs[1]
    assert bert.sync == "before_communication" and bert.gpus == 2 and bert.iterations == 2000
    p = bert.profiles[0]
    assert (p.load, p.communication) == (0.5, 18)
    assert p.forward + p.backward == pytest.approx(163, abs=1e-3)
    # Muri's standalone iteration time and job length reach the instance (issue 28).
    assert (p.measured, p.alone, bert.duration) == (195, 195, 390.0)
    assert to_dict(inst)["jobs"][1]["profiles"]["V100"]["iteration"] == 195
    assert muri.build(path, seed=1) == inst
    assert from_dict(to_dict(inst)) == inst
    FAMILY.summary(inst)


def test_muri_builder_reports_bad_rows(tmp_path: Path) -> None:
    path = _write(tmp_path, ["0,1,5000,1000,dqn,128,0,0,490,x,8,0,1", "1,128,0,10,a2c,64,0,0,1,1,1,1,0"])
    with pytest.raises(InstanceError) as err:
        muri.build(path, seed=1)
    assert {p.path for p in err.value.problems} == {"line 2, column resource_time_0", "line 3, column num_gpu"}
    (tmp_path / "bad.csv").write_text("job_id,num_gpu\n0,1\n", encoding="utf-8")
    with pytest.raises(PackgapError, match=r"missing columns? 'submit_time'.*expected a Muri trace CSV"):
        muri.build(tmp_path / "bad.csv", seed=1)


@pytest.mark.traces
@pytest.mark.skipif(not (TRACES / "cluster_exp" / "cluster_trace.csv").exists(), reason="Muri traces not present")
def test_muri_builder_on_the_real_trace() -> None:
    inst = muri.build(TRACES / "cluster_exp" / "cluster_trace.csv", seed=0)
    assert len(inst.jobs) == 400
    assert {j.gpus for j in inst.jobs} == {1, 2, 4, 8, 16, 32}
    assert from_dict(to_dict(inst)) == inst
