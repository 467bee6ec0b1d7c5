"""Table-driven CLI robustness of outputs, numbers and stores (issue 22.2, 22.6): each bad
invocation ends with exit 2 and a message naming the cause, never a traceback, and a failing
write keeps what was computed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import duckdb
import pytest

from packgap import jsonio
from packgap.analysis.cliutil import fmt_column
from packgap.analysis.registry import to_document
from packgap.instances.packing.generator import generate as generate_packing
from packgap.instances.planning.generator import generate
from tests.clirun import packgap

#: A store name and export names that would run SQL if pasted into a statement.
STORE = "it's; COPY.duckdb"
INJECTED = ("x.parquet' (FORMAT PARQUET); COPY rows_frame TO 'pwned.csv' (FORMAT CSV); --.parquet", "it's; COPY.csv")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("outputs")
    jsonio.write(to_document("planning", generate(4, seed=1)), root / "p.json")
    jsonio.write(to_document("packing", generate_packing(4, seed=1)), root / "pk.json")
    jsonio.write(to_document("planning", generate(4, seed=1, tardiness_weight=0.123456789)), root / "tw.json")
    (root / "deep.json").write_text('{"schema": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (root / "digits.json").write_text('{"schema": "packgap.planning", "version": ' + "9" * 5000 + "}")
    (root / "afile").write_text("")
    (root / "D" / "REPRODUCTION.md").mkdir(parents=True)
    odd = duckdb.connect(str(root / "odd.duckdb"))
    odd.execute("CREATE TABLE results (a INTEGER, b VARCHAR)")
    odd.close()
    done = packgap("compare", "p.json", "--methods", "mchp,edf", "--store", STORE, cwd=root)
    assert done.returncode == 0, done.stderr
    return root


BAD = [
    (("instances", "check", "deep.json"), "nested too deeply"),
    (("solve", "deep.json", "-m", "mchp"), "nested too deeply"),
    (("instances", "check", "digits.json"), "more than 4,300 digits"),
    (("solve", "digits.json", "-m", "mchp"), "more than 4,300 digits"),
    (("report", "odd.duckdb"), "not a results store of packgap"),
    (("compare", "p.json", "--methods", "mchp", "--store", "odd.duckdb"), "not a results store of packgap"),
    (("compare", "p.json", "--methods", ""), "methods: none given"),
    (("compare", "tw.json", "--methods", "exact-cpsat"), "every method failed (exact-cpsat)"),
    (("compare", "p.json", "--methods", "mchp", "--seed", "99999999999999999999", "--store", "n.duckdb"), "--seed"),
    (("compare", "p.json", "--methods", "mchp", "--seed", str(2**63), "--store", "n.duckdb"), "--seed"),
    (("solve", "p.json", "-m", "exact-cpsat", "--seed", str(2**31)), "--seed"),
    (("simulate", "pk.json", "--pipeline", "dab+mchp", "--seed", str(10**20), "--store", "n.duckdb"), "--seed"),
    (("simulate", "pk.json", "--pipeline", "dab+mchp", "--time-limit", "0"), "time_limit: must be a positive"),
    (("instances", "generate", "planning", "--groups", "3", "--gpu-types", "A800", "-o", "x.json"), "NAME:COUNT"),
    (
        ("instances", "generate", "planning", "--groups", "3", "--gpu-types", "A800:2,A800:3", "-o", "x.json"),
        "'A800' given twice",
    ),
    (("report", STORE, "--export", "rows.txt"), "--export rows.txt: unknown file format '.txt' (use .csv, .parquet)"),
    (("figures", "pal-fig18", "--out", "afile/figs"), "cannot create the folder"),
    (("figures", "pal-fig18", "--out", "D"), "D/REPRODUCTION.md is a folder"),
]
if sys.platform.startswith("linux"):
    BAD.append((("figures", "pal-fig18", "--out", "/proc/packgap-figs"), "cannot create the folder"))


@pytest.mark.parametrize(("args", "fragment"), BAD, ids=[" ".join(a)[:60] for a, _ in BAD])
def test_bad_invocations_exit_2_with_the_cause(files: Path, args: tuple[str, ...], fragment: str) -> None:
    done = packgap(*args, cwd=files)
    assert done.returncode == 2, done.stdout + done.stderr
    assert fragment in " ".join(done.stderr.split())
    assert "Traceback" not in done.stderr


def test_no_path_or_name_becomes_sql(files: Path) -> None:
    for name in INJECTED:
        done = packgap("report", STORE, "--export", name, cwd=files)
        assert done.returncode == 0, done.stderr
        assert (files / name).is_file()
    assert not (files / "pwned.csv").exists()
    assert (files / INJECTED[0]).read_bytes()[:4] == b"PAR1"
    assert (files / INJECTED[1]).read_text().count("\n") == 3  # a header and the two rows


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="writes under /proc")
@pytest.mark.parametrize(
    "args", [("--export", "/proc/x.csv"), ("--export", "/proc/x.parquet"), ("--plot", "/proc/x.png", "--by", "groups")]
)
def test_a_failing_write_keeps_the_output_beside(files: Path, tmp_path: Path, args: tuple[str, ...]) -> None:
    done = packgap("report", str(files / STORE), *args, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"cannot write {args[1]}" in done.stderr
    (rescued,) = tmp_path.glob("packgap-rescued-*")
    assert rescued.name.endswith(Path(args[1]).name) and rescued.stat().st_size > 0
    assert str(rescued) in "".join(done.stderr.split())


def test_rows_of_the_quoted_store_are_all_there(files: Path) -> None:
    rows = json.loads(packgap("report", STORE, "--rows", "--json", cwd=files).stdout)
    assert sorted(r["method"] for r in rows) == ["edf", "mchp"]


def test_help_shows_whole_option_names_and_plain_flags(tmp_path: Path) -> None:
    done = packgap("instances", "generate", "sharing", "--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "--preemption-overhead-s" in done.stdout
    assert "<bool>" not in done.stdout and "\u2026" not in done.stdout


def test_numbers_on_screen_take_one_style_per_column() -> None:
    assert fmt_column([105716.4, 25171.5]) == ["105,716.4", "25,171.5"]
    assert fmt_column([1090076821.0, float("nan"), 3]) == ["1090076821", "-", "3"]  # seeds read back as floats
    assert fmt_column([0.0770768, 832982.5, "n/a"]) == ["0.0770768", "832,982.5", "n/a"]
    assert fmt_column([0.1234, None], pct=True) == ["12.34%", "-"]
