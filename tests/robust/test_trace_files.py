"""Issue 22.4: trace builders name the file, the line, the column and what they expected, for
a file of another trace, a binary or UTF-16 file, a file cut mid-row and a bad --start."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.robust.inprocess import run
from tests.robust.samples import MURI, PHILLY


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "muri.csv").write_text(MURI, encoding="utf-8")
    (tmp_path / "philly.csv").write_text(PHILLY, encoding="utf-8")
    (tmp_path / "utf16.csv").write_bytes(MURI.encode("utf-16"))
    (tmp_path / "binary.csv").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "cut.csv").write_text(MURI[:-12], encoding="utf-8")
    (tmp_path / "blank.csv").write_text(MURI.replace(",5000,", ",,"), encoding="utf-8")
    return tmp_path


CASES = [
    (
        ("sharing-pollux", "muri.csv", "--xi-source", "global"),
        "muri.csv: missing columns 'name', 'time', 'application', 'num_replicas' (expected a Pollux workload CSV",
    ),
    (
        ("calibration-openb", "philly.csv"),
        "philly.csv: missing columns 'creation_time', 'deletion_time', 'scheduled_time', 'num_gpu' "
        "(expected an Alibaba openb pod list",
    ),
    (("calibration-philly", "muri.csv"), "muri.csv: missing column 'timestamp' (expected a Philly job summary"),
    (("muri", "utf16.csv"), "utf16.csv: not a UTF-8 CSV text file"),
    (("muri", "binary.csv"), "binary.csv: not a UTF-8 CSV text file"),
    (("muri", "cut.csv"), "cut.csv line 3: column resource_time_0: missing (the row ends early)"),
    (("muri", "blank.csv"), "line 2, column submit_time: '' is not a number"),
    (("muri", "philly.csv"), "philly.csv: missing columns 'job_id', 'num_gpu', 'submit_time'"),
    (
        ("sharing-philly", "philly.csv", "--start", "not-a-date", "--xi-source", "global"),
        "--start: expected an ISO date and time such as 2017-10-02 09:00:00, got 'not-a-date'",
    ),
    (
        ("calibration-philly", "philly.csv", "--start", "not-a-date"),
        "--start: expected an ISO date and time such as 2017-10-02 09:00:00, got 'not-a-date'",
    ),
]


@pytest.mark.parametrize(("args", "fragment"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_a_bad_trace_file_is_named_with_what_was_expected(files: Path, args: tuple[str, ...], fragment: str) -> None:
    code, err = run("instances", "from-trace", *args, "-o", "out.json")
    assert code == 2, err
    assert fragment in " ".join(err.split()), err
    assert not (files / "out.json").exists()


def test_the_good_muri_file_still_builds(files: Path) -> None:
    code, err = run("instances", "from-trace", "muri", "muri.csv", "-o", "out.json")
    assert code == 0, err
    assert "muri-1" in (files / "out.json").read_text()


def test_pollux_profiles_and_gavel_xi_files_are_named(files: Path) -> None:
    apps = ("bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3")
    rows = "placement,local_bsz,step_time,sync_time\n1,4,0.5,0.01\n1,8,0.9,0.01\n2,4,0.6,0.05\n11,8,1.0,0.08\n"
    for app in apps:
        (files / "profiles" / app).mkdir(parents=True)
        (files / "profiles" / app / "placements.csv").write_text(rows.replace("0.9", "x") if app == "ncf" else rows)
    (files / "pollux.csv").write_text("name,time,application,num_replicas,batch_size\nj1,0,bert,2,24\n")
    args = ("sharing-pollux", "pollux.csv", "--profiles", "profiles", "--xi-source", "global")
    code, err = run("instances", "from-trace", *args, "-o", "out.json")
    assert code == 2, err
    assert "ncf/placements.csv line 3: column step_time: expected a number, got 'x'" in " ".join(err.split())
    (files / "profiles" / "ncf" / "placements.csv").write_text(rows)
    code, err = run("instances", "from-trace", *args, "-o", "out.json")
    assert code == 0, err
    (files / "empty").mkdir()
    gavel = ("sharing-pollux", "pollux.csv", "--profiles", "profiles", "--traces", "empty", "--xi-source", "gavel")
    code, err = run("instances", "from-trace", *gavel, "-o", "out.json")
    assert code == 2, err
    assert "gavel/simulation_throughputs.json: 1 problem(s) - cannot read file" in " ".join(err.split())
