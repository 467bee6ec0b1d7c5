"""Issue 22.5: a sweep spec is checked like an instance: every key known, every type checked
(bool is not a number), and each message names the file and the key path."""

from __future__ import annotations

from pathlib import Path

import pytest

from packgap.analysis.spec import load_spec
from packgap.errors import PackgapError
from tests.clirun import packgap
from tests.robust.samples import SPEC

BAD = [
    ("time_limit = 20", 'time_limit = "60"', "time_limit: expected a number of seconds, got str"),
    ("time_limit = 20", "time_limit = true", "time_limit: expected a number of seconds, got bool"),
    ("seed = 5", 'seed = 5\nthreads = "2"', "threads: expected a whole number, got str"),
    ("seed = 5", "seed = 5\ntraces = 5", "traces: expected a folder path"),
    ("seed = 5", 'seed = "abc"', "seed: expected a whole number, got str"),
    ("seed = 5", "seed = 4294967296", "seed: must lie in [0, 2147483647]"),
    ("seed = 5", "seed = 5\nrepetitions = true", "repetitions: expected a whole number in [1, 1000]"),
    ("[params.mchp]", "[params.mchpp]", "params.mchpp: unknown method (known: edf, mchp)"),
    ("deadline_weight = 2.0", "deadline_wieght = 2.0", "params.mchp: method 'mchp' has no parameter deadline_wieght"),
    ("sizes = [3]", "sizes = [true]", "generate[0].sizes: expected a non-empty list of whole numbers"),
    ("sizes = [3]", "sizes = [3]\nsize = 3", "generate[0]: unknown key(s) size"),
    ('gpu_types = "A800:1,RTX4090:2"', "gpu_types = 5", "generate[0]: --gpu-types expects str, got int 5"),
    ('generator = "planning"', "generator = 5", "generate[0].generator: expected a name, got 5"),
    ('"mchp", "edf"]', '"mchp", "edff"]', "generate[0].methods: unknown planning method 'edff'"),
]


@pytest.mark.parametrize(("old", "new", "fragment"), BAD, ids=[new for _, new, _ in BAD])
def test_a_bad_spec_names_file_and_key(tmp_path: Path, old: str, new: str, fragment: str) -> None:
    assert old in SPEC
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.replace(old, new, 1))
    with pytest.raises(PackgapError) as raised:
        load_spec(path)
    assert str(raised.value).startswith(f"{path}: ")
    assert fragment in str(raised.value)


def test_the_unchanged_spec_loads(tmp_path: Path) -> None:
    (tmp_path / "spec.toml").write_text(SPEC)
    spec = load_spec(tmp_path / "spec.toml")
    assert (len(spec.cells), spec.time_limit, spec.threads) == (2, 20.0, 1)


def test_the_cli_exits_2_on_a_method_typo_in_params(tmp_path: Path) -> None:
    (tmp_path / "spec.toml").write_text(SPEC.replace("[params.mchp]", "[params.mchpp]"))
    done = packgap("sweep", "--spec", "spec.toml", "--store", "s.duckdb", cwd=tmp_path)
    assert done.returncode == 2
    assert "spec.toml: params.mchpp: unknown method (known: edf, mchp)" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "s.duckdb").exists()
