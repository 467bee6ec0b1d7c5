"""``packgap instances from-csv FAMILY FILE`` (issue 32.4): own jobs into sharing, placement and
packing instances; every dropped or changed row named by line; bad cells all listed at once."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from packgap.analysis import registry
from packgap.errors import InstanceError, PackgapError
from packgap.instances.csv_jobs import CsvNote
from tests.clirun import in_process

JOBS = """arrival_s,gpus,duration_s,iterations,model,deadline_s,batch_size
100,1,3600,,resnet50,,
220,2,1800,,ResNet-50,20000,32
400,4,7200,,my-transformer,,
500,64,600,,vgg19,,
1000,1,,5000,bert,,
"""


def _built(tmp_path: Path, family: str, **options: Any) -> tuple[Any, list[str]]:
    path = tmp_path / "jobs.csv"
    path.write_text(JOBS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CsvNote)
        built = registry.kit(family).csv_builder.build(path, options)
    return built, [str(w.message) for w in caught]


def test_placement_keeps_known_models_and_names_each_change(tmp_path: Path) -> None:
    trace, notes = _built(tmp_path, "placement", gpus=16, factors="synthetic")
    assert [j.id for j in trace.jobs] == ["job2", "job3", "job4", "job6"]
    assert [j.submit_time for j in trace.jobs] == [0.0, 120.0, 300.0, 900.0]
    assert [j.model for j in trace.jobs][:2] == ["resnet50", "resnet50"] and trace.jobs[3].model == "BERT"
    assert trace.jobs[3].work == 5000.0
    assert "1 of 5 rows dropped: more GPUs than the cluster (16): line 5" in notes
    assert "model 'ResNet-50' read as 'resnet50': 1 row(s), line 3" in notes
    assert any(n.startswith("model 'my-transformer' unknown to packgap, mapped") and "line 4" in n for n in notes)
    assert any(n.startswith("column deadline_s ignored") and "line 3" in n for n in notes)


def test_packing_keeps_deadlines_batches_and_iterations(tmp_path: Path) -> None:
    instance, notes = _built(tmp_path, "packing")
    by_id = {j.id: j for j in instance.jobs}
    assert by_id["job3"].deadline == 19900.0 and by_id["job3"].model == "resnet50-bs32"
    assert by_id["job6"].iterations == 5000 and by_id["job6"].model.startswith("bert-bs")
    assert "job5" not in by_id and any("line 5" in n for n in notes)


def test_sharing_reads_model_names_as_pollux_tasks(tmp_path: Path) -> None:
    instance, notes = _built(tmp_path, "sharing", nodes=2, xi_source="global")
    assert [j.model for j in instance.jobs][:2] == ["imagenet", "imagenet"] and instance.cluster.gpus == 8
    assert instance.jobs[1].batch == 32 and instance.jobs[3].iterations == 5000
    assert "model 'resnet50' read as 'imagenet': 1 row(s), line 2" in notes


def test_bad_cells_are_listed_with_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(
        "arrival_s,gpus,duration_s,model,deadline_s\nx,1,10,bert,\n5,0,10,bert,\n9,1,,bert,\n9,1,5,bert,3\n"
    )
    with pytest.raises(InstanceError) as raised:
        registry.kit("packing").csv_builder.build(path, {})
    text = str(raised.value)
    for where in (
        "line 2, column arrival_s",
        "line 3, column gpus",
        "line 4, column duration_s",
        "line 5, column deadline_s",
    ):
        assert where in text
    path.write_text("arrival_s,gpus,model\n0,1,bert\n")
    with pytest.raises(PackgapError, match="needs a duration_s or an iterations column"):
        registry.kit("packing").csv_builder.build(path, {})


def test_philly_takes_cluster_options_and_a_small_file(tmp_path: Path) -> None:
    from packgap.instances.sharing.traces import from_philly

    path = tmp_path / "philly.csv"
    rows = [f"2017-10-02 09:0{i}:00,{600 + 60 * i},{1 + i % 2},0,x" for i in range(6)]
    path.write_text("timestamp,duration,num_gpus,gpu_time,cluster\n" + "\n".join(rows) + "\n")
    instance = from_philly(path, xi_source="global", nodes=2, gpus_per_node=2)
    assert len(instance.jobs) == 6 and instance.cluster.gpus == 4


def test_from_csv_on_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("jobs.csv").write_text(JOBS)
    code, _, errors = in_process(
        monkeypatch,
        "instances",
        "from-csv",
        "sharing",
        "jobs.csv",
        "-o",
        "s.json",
        "--nodes",
        "2",
        "--xi-source",
        "global",
    )
    assert code == 0 and "note: 1 of 5 rows dropped" in errors and Path("s.json").is_file()
